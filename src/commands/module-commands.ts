import type { EventCatalog } from '../events/catalog';
import type { NewEvent } from '../events/envelope';
import { handleCommand } from './command-handler';
import { createNumbered, type CommandContext, type CommandResult } from './context';
import type { Decider } from './decider';

export interface ModuleCommands {
  /** Decides a command on one stream and appends what it decided. */
  run<Command, State, Event extends NewEvent>(
    context: CommandContext,
    stream: string,
    decider: Decider<Command, State, Event>,
    command: Command,
  ): Promise<CommandResult>;
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
  const run: ModuleCommands['run'] = async (context, stream, decider, command) => {
    const environment = {
      eventStore: context.eventStore,
      catalog,
      metadata: context.metadata(),
      eventId: context.eventId,
      idempotency: context.idempotency,
    };
    return { stream, outcome: await handleCommand(environment, stream, decider, command) };
  };
  return {
    run,
    create: (context, category, decider, commandFor) =>
      createNumbered(context, category, async (id) =>
        run(context, `${category}-${id}`, decider, await commandFor(id)),
      ),
  };
}
