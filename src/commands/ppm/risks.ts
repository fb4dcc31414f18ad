import type { PpmEventOf, RiskRating } from '../../events/ppm';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type RiskIdentified = PpmEventOf<'RiskIdentified'>;

/** Probability x impact on the 5 x 5 matrix, and its rating band. */
export function riskScore(probability: number, impact: number): { score: number; rating: RiskRating } {
  const score = probability * impact;
  const rating = score >= 16 ? 'Critical' : score >= 10 ? 'High' : score >= 5 ? 'Medium' : 'Low';
  return { score, rating };
}

export interface IdentifyRisk {
  type: 'IdentifyRisk';
  risk: Omit<RiskIdentified['data'], 'score' | 'rating'>;
  projectExists: boolean;
}

export function riskRef(id: number): string {
  return `RSK-${String(id).padStart(4, '0')}`;
}

export const riskDecider: Decider<IdentifyRisk, { exists: boolean }, RiskIdentified> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ risk, projectExists }, state) {
    if (state.exists) throw new DomainError('already_exists', `Risk ${risk.id} exists`);
    if (!projectExists) throw invalidField('project_id', `project ${risk.project_id} does not exist`);
    if (risk.status !== 'Accepted' && risk.status !== 'Closed' && !risk.mitigation) {
      throw invalidField('mitigation', `is required for a risk that is ${risk.status}`);
    }
    return [{ type: 'RiskIdentified', data: { ...risk, ...riskScore(risk.probability, risk.impact) } }];
  },
};
