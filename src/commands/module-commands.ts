import type { EventCatalog } from '../events/catalog';
import type { NewEvent } from '../events/envelope';
import { decideOn, handleDecisions, type CommandEnvironment, type Decision } from './command-handler';
import { createNumbered, type CommandContext, type CommandResult } from './context';
import type { Decider } from './decider';

/** Decides a command on a stream as it is now, without appending (see `ModuleCommands.runTogether`). */
export type Decide = <Command, State, Event extends NewEvent>(
  stream: string,
  decider: Decider<Command, State, Event>,
  command: Command,
) => Promise<Decision>;

/**
 * A record's decision and the decisions on other streams appended with it, in this order. A store
 * without transactions across streams (EventStoreDB) appends them one after the other, so a process
 * that stops, or a conflict on a later stream, can leave the earlier ones alone: each part is placed so
 * that what stands alone is a state readers already discount (see `commands/hrm/calendar-holds.ts`).
 */
export interface Together {
  /**
   * Entries that guard the record (a calendar's days): appended before it, so a conflict on them
   * stores nothing. One left without its record counts only once its record holds it.
   */
  before?: Decision[];
  record: Decision;
  /**
   * What the record lets go of (days given back): appended after it, so a decision refused on the
   * record's stream stores nothing. Until it is stored, readers discount it by the record's state.
   */
  after?: Decision[];
}

export interface ModuleCommands {
  /** Decides a command on one stream and appends what it decided. */
  run<Command, State, Event extends NewEvent>(
    context: CommandContext,
    stream: string,
    decider: Decider<Command, State, Event>,
    command: Command,
  ): Promise<CommandResult>;
  /**
   * Decides a record's command together with commands on other streams that must not be appended
   * without it (a calendar that guards it, or gives days back when it is rejected), and appends all
   * of it at once, in the order `Together` gives. Answers the record's result.
   */
  runTogether(
    context: CommandContext,
    decideAll: (decide: Decide) => Promise<Together>,
  ): Promise<CommandResult>;
  /** `runTogether` for a record created under the next number of its category (stream `<category>-<id>`). */
  createTogether(
    context: CommandContext,
    category: string,
    decideAll: (id: number, decide: Decide) => Promise<Together>,
  ): Promise<CommandResult & { id: number }>;
  /** Creates an entity under the next number of its category; the command is built for that number. */
  create<Command, State, Event extends NewEvent>(
    context: CommandContext,
    category: string,
    decider: Decider<Command, State, Event>,
    commandFor: (id: number) => Command | Promise<Command>,
  ): Promise<CommandResult & { id: number }>;
}

/** The command plumbing of one module: its event catalog validates everything it appends. */
export function moduleCommands(catalog: EventCatalog): ModuleCommands {
  const environmentOf = (context: CommandContext): CommandEnvironment => ({
    eventStore: context.eventStore,
    catalog,
    metadata: context.metadata(),
    eventId: context.eventId,
    idempotency: context.idempotency,
  });
  const runTogether: ModuleCommands['runTogether'] = async (context, decideAll) => {
    const decide: Decide = (stream, decider, command) =>
      decideOn(context.eventStore, stream, decider, command);
    let recordAt = 0;
    const results = await handleDecisions(environmentOf(context), async () => {
      const { before = [], record, after = [] } = await decideAll(decide);
      recordAt = before.length;
      return { decisions: [...before, record, ...after], keyed: record };
    });
    return results[recordAt] as CommandResult;
  };
  const run: ModuleCommands['run'] = (context, stream, decider, command) =>
    runTogether(context, async (decide) => ({ record: await decide(stream, decider, command) }));
  const createTogether: ModuleCommands['createTogether'] = (context, category, decideAll) =>
    createNumbered(context, category, (id) => runTogether(context, (decide) => decideAll(id, decide)));
  return {
    run,
    runTogether,
    createTogether,
    create: (context, category, decider, commandFor) =>
      createTogether(context, category, async (id, decide) => ({
        record: await decide(`${category}-${id}`, decider, await commandFor(id)),
      })),
  };
}
