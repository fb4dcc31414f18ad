import type { MarketEventOf } from '../../events/market';
import type { Decider } from '../decider';

type MarketFiguresComputed = MarketEventOf<'MarketFiguresComputed'>;

export type RecordFigures = { type: 'RecordFigures'; figures: readonly MarketFiguresComputed['data'][] };

/** The hash of each market's last recorded figures. */
export type FiguresState = ReadonlyMap<string, string>;

/** Records the markets whose figures changed; figures equal to the last recorded ones append nothing. */
export const figuresDecider: Decider<RecordFigures, FiguresState, MarketFiguresComputed> = {
  initialState: () => new Map(),
  evolve: (state, event) => new Map(state).set(event.data.country, event.data.sha256),
  decide: ({ figures }, state) =>
    figures
      .filter((market) => state.get(market.country) !== market.sha256)
      .map((market) => ({ type: 'MarketFiguresComputed', data: market })),
};
