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
   * of it at once: the others' events first, then the record's. Answers the record's result.
   */
  runTogether(
    context: CommandContext,
    decideAll: (decide: Decide) => Promise<{ record: Decision; others: Decision[] }>,
  ): Promise<CommandResult>;
  /** `runTogether` for a record created under the next number of its category (stream `<category>-<id>`). */
  createTogether(
    context: CommandContext,
    category: string,
    decideAll: (id: number, decide: Decide) => Promise<{ record: Decision; others: Decision[] }>,
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
    const results = await handleDecisions(environmentOf(context), async () => {
      const { record, others } = await decideAll(decide);
      return [...others, record];
    });
    return results[results.length - 1] as CommandResult;
  };
  const run: ModuleCommands['run'] = (context, stream, decider, command) =>
    runTogether(context, async (decide) => ({ record: await decide(stream, decider, command), others: [] }));
  const createTogether: ModuleCommands['createTogether'] = (context, category, decideAll) =>
    createNumbered(context, category, (id) => runTogether(context, (decide) => decideAll(id, decide)));
  return {
    run,
    runTogether,
    createTogether,
    create: (context, category, decider, commandFor) =>
      createTogether(context, category, async (id, decide) => ({
        record: await decide(`${category}-${id}`, decider, await commandFor(id)),
        others: [],
      })),
  };
}
