import type { Decider } from '../../src/commands/decider';
import type { NewEvent } from '../../src/events/envelope';

/** Given events, when a command, then events (or an error): the shape of every decider test. */
export function deciderSpec<Command, State, Event extends NewEvent>(decider: Decider<Command, State, Event>) {
  return (given: readonly Event[]) => ({
    when: (command: Command) => {
      const decide = () => decider.decide(command, given.reduce(decider.evolve, decider.initialState()));
      return {
        then: (expected: readonly Event[]) => expect(decide()).toEqual(expected),
        thenThrows: (error: object) => expect(decide).toThrow(expect.objectContaining(error)),
      };
    },
  });
}
