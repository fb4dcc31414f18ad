import type { MarketEventOf } from '../../events/market';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type CompetitorVerified = MarketEventOf<'CompetitorVerified'>;
type LocationGeocoded = MarketEventOf<'LocationGeocoded'>;

export type VerifyCompetitor = { type: 'VerifyCompetitor'; competitor: CompetitorVerified['data'] };

export const competitorDecider: Decider<VerifyCompetitor, { exists: boolean }, CompetitorVerified> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ competitor }, state) {
    if (state.exists) throw new DomainError('already_exists', `Competitor ${competitor.id} exists`);
    return [{ type: 'CompetitorVerified', data: competitor }];
  },
};

export type GeocodeLocation = {
  type: 'GeocodeLocation';
  location: LocationGeocoded['data'];
  /** Whether the competitor the location belongs to has been verified. */
  competitorExists: boolean;
};

export const locationDecider: Decider<GeocodeLocation, { exists: boolean }, LocationGeocoded> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ location, competitorExists }, state) {
    if (state.exists) throw new DomainError('already_exists', `Location ${location.id} exists`);
    if (!competitorExists) {
      throw invalidField('competitor_id', `competitor ${location.competitor_id} is not verified`);
    }
    return [{ type: 'LocationGeocoded', data: location }];
  },
};
