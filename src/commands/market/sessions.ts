import type { MarketEventOf } from '../../events/market';
import type { Decider } from '../decider';
import { DomainError } from '../errors';

type SessionStarted = MarketEventOf<'SessionStarted'>;
type SessionEnded = MarketEventOf<'SessionEnded'>;

export type SessionCommand =
  | { type: 'StartSession'; session: SessionStarted['data'] }
  | { type: 'EndSession'; session: SessionEnded['data'] };

/**
 * A session starts once and ends once. Ending one whose start was never recorded (a cookie minted by
 * `suite session mint`) is recorded all the same: it revokes that cookie too.
 */
export const sessionDecider: Decider<
  SessionCommand,
  { started: boolean; ended: boolean },
  SessionStarted | SessionEnded
> = {
  initialState: () => ({ started: false, ended: false }),
  evolve: (state, event) =>
    event.type === 'SessionStarted' ? { ...state, started: true } : { ...state, ended: true },
  decide(command, state) {
    if (command.type === 'EndSession') {
      return state.ended ? [] : [{ type: 'SessionEnded', data: command.session }];
    }
    if (state.started) throw new DomainError('already_exists', 'This session has already started');
    return [{ type: 'SessionStarted', data: command.session }];
  },
};
