import { eventCatalog } from '../../events/catalog';
import type { NewEvent } from '../../events/envelope';
import { hrmEvents, hrmStream, type HrmEvent, type HrmEventOf } from '../../events/hrm';
import { creationData, once, type CommandContext } from '../context';
import { fold, type Decider } from '../decider';
import { moduleCommands } from '../module-commands';
import { employeeDecider, type EmployeeFacts } from './employees';
import type { Reference } from './lifecycle';
import {
  brandDecider,
  careerSiteDecider,
  departmentDecider,
  organizationDecider,
  teamDecider,
} from './organisation';
import { candidateDecider, distributionDecider, jobDecider } from './recruitment';

/*
 * The HR module's command plumbing, shared by its handlers: `run`, `runTogether`, `create` and
 * `createTogether` over the module's event catalog, and the facts a handler gathers from other
 * records' streams for its decider to check.
 */
export const { run, runTogether, create, createTogether } = moduleCommands(eventCatalog(hrmEvents));

export { once };

export type Data<Type extends HrmEvent['type']> = HrmEventOf<Type>['data'];

export async function stateOf<State, Event extends NewEvent>(
  context: CommandContext,
  decider: Decider<never, State, Event>,
  stream: string,
): Promise<State> {
  return fold(decider, (await context.eventStore.readStream(stream)) as unknown as Event[]);
}

/** The data of the event that created a record, if the record exists. */
export const created = <Type extends HrmEvent['type']>(context: CommandContext, stream: string) =>
  creationData<Data<Type>>(context, stream);

export function employeeFacts(context: CommandContext, employeeId: number): Promise<EmployeeFacts | null> {
  return stateOf(context, employeeDecider, hrmStream('employee', employeeId));
}

/** Records other records refer to, with the decider that knows their status and a name for messages. */
const REFERABLE = {
  organization: [organizationDecider, 'organization'],
  brand: [brandDecider, 'brand'],
  careerSite: [careerSiteDecider, 'career site'],
  department: [departmentDecider, 'department'],
  team: [teamDecider, 'team'],
  employee: [employeeDecider, 'employee'],
  job: [jobDecider, 'job'],
  distribution: [distributionDecider, 'job distribution'],
  candidate: [candidateDecider, 'candidate'],
} as const;

type Referable = keyof typeof REFERABLE;
export type Wanted = readonly [
  field: string,
  category: Referable,
  id: number | null,
  allowed?: readonly string[],
];

/** The status of each record the fields name (`null` when absent), for the decider to check. */
export async function references(context: CommandContext, wanted: readonly Wanted[]): Promise<Reference[]> {
  const found: Reference[] = [];
  for (const [field, category, id, allowed = ['Active']] of wanted) {
    if (id === null) continue;
    const [decider, entity] = REFERABLE[category];
    const state = await stateOf(
      context,
      decider as unknown as Decider<never, { status: string } | null, NewEvent>,
      hrmStream(category, id),
    );
    found.push({ field, entity, id, status: state?.status ?? null, allowed });
  }
  return found;
}
