import { hrmCategories, hrmStream } from '../../events/hrm';
import type { CommandContext } from '../context';
import { create, created, once, references, run, type Data } from './facts';
import {
  applicationDecider,
  candidateDecider,
  distributionDecider,
  jobDecider,
  type ApplicationCommand,
} from './recruitment';
import { derivedText } from '../../privacy/sealed-value';

/* Handlers of recruitment: job openings, their placements on career sites, candidates and applications. */

export type JobInput = Omit<Data<'JobOpened'>, 'id'>;

export function openJob(context: CommandContext, input: JobInput) {
  return create(context, hrmCategories.job, jobDecider, async (id) => ({
    type: 'Add' as const,
    data: { id, ...input },
    references: await references(context, [
      ['department_id', 'department', input.department_id],
      ['organization_id', 'organization', input.organization_id],
      ['brand_id', 'brand', input.brand_id],
      ['team_id', 'team', input.team_id],
      ['hiring_manager_id', 'employee', input.hiring_manager_id],
      ['recruiter_id', 'employee', input.recruiter_id],
    ]),
  }));
}

export type DistributionInput = Omit<Data<'JobDistributed'>, 'id' | 'published_on'>;

export function distributeJob(context: CommandContext, input: DistributionInput) {
  const { context: timed, at } = once(context);
  return create(timed, hrmCategories.distribution, distributionDecider, async (id) => {
    const site = await created<'CareerSiteAdded'>(context, hrmStream('careerSite', input.career_site_id));
    return {
      type: 'Add' as const,
      data: { id, ...input, published_on: at },
      references: await references(context, [
        ['job_id', 'job', input.job_id, ['Open']],
        ['career_site_id', 'careerSite', input.career_site_id, ['Published']],
        ['brand_id', 'brand', input.brand_id],
      ]),
      site: site ? { brand_id: site.brand_id, locales: site.locales } : null,
    };
  });
}

export type CandidateInput = Omit<Data<'CandidateAdded'>, 'id' | 'extraction'> & {
  extraction: Omit<Data<'CandidateAdded'>['extraction'], 'extracted_on'>;
};

/** Adds a candidate whose profile was extracted from their CV just now. */
export function addCandidate(context: CommandContext, input: CandidateInput) {
  const { context: timed, at } = once(context);
  return create(timed, hrmCategories.candidate, candidateDecider, (id) => ({
    type: 'Add' as const,
    data: { id, ...input, extraction: { ...input.extraction, extracted_on: at } },
    references: [],
  }));
}

export type ApplicationInput = Pick<
  Data<'ApplicationReceived'>,
  'candidate_id' | 'job_id' | 'source' | 'job_distribution_id'
>;

export function receiveApplication(context: CommandContext, input: ApplicationInput) {
  const { context: timed, at } = once(context);
  return create(timed, hrmCategories.application, applicationDecider, async (id) => {
    const candidate = await created<'CandidateAdded'>(context, hrmStream('candidate', input.candidate_id));
    const job = await created<'JobOpened'>(context, hrmStream('job', input.job_id));
    return {
      type: 'ReceiveApplication' as const,
      application: {
        id,
        ...input,
        candidate_name: candidate ? derivedText([candidate.first_name, candidate.last_name]) : '',
        job_title: job?.title ?? '',
        applied_on: at,
      },
      references: await references(context, [
        ['candidate_id', 'candidate', input.candidate_id],
        ['job_id', 'job', input.job_id, ['Open']],
        ['job_distribution_id', 'distribution', input.job_distribution_id, ['Live']],
      ]),
    };
  });
}

export function actOnApplication(
  context: CommandContext,
  applicationId: number,
  command: Exclude<ApplicationCommand, { type: 'ReceiveApplication' }>,
) {
  return run(context, hrmStream('application', applicationId), applicationDecider, command);
}
