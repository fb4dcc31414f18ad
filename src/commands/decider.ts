import type { NewEvent } from '../events/envelope';

/** Writes are decisions: fold the stream with `evolve`, then `decide` what happens (or throw). */
export interface Decider<Command, State, Event extends NewEvent> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State) => Event[];
}

export function fold<State, Event extends NewEvent>(
  decider: Pick<Decider<unknown, State, Event>, 'initialState' | 'evolve'>,
  events: readonly Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState());
}
