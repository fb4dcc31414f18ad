import type { CandidateInput } from '../../commands/hrm/recruitment-handlers';
import type { EXTRACTION_SOURCES } from '../../events/hrm';
import type { SeedContext } from '../context';
import {
  CITIES,
  COUNTRY_LOCALE,
  DEGREES,
  DEPARTMENTS,
  EMPLOYERS,
  FIRST_NAMES,
  LANGUAGE_OF,
  LAST_NAMES,
  UNIVERSITIES,
  VOCATIONAL,
  type CountryCode,
  type JobTemplate,
  type OrganizationSeed,
} from '../hrm-data';
import { ascii, sample } from './plan';

const SOURCE_WEIGHTS = {
  'Career Site': 40,
  LinkedIn: 25,
  'Job Board': 15,
  Referral: 12,
  Agency: 5,
  Campus: 3,
} as const;
const EXTRACTION_WEIGHTS: Record<(typeof EXTRACTION_SOURCES)[number], number> = {
  cv_pdf: 70,
  cv_docx: 20,
  linkedin_profile: 10,
};
const MOBILE: readonly CountryCode[] = ['GB', 'DE', 'FR', 'ES', 'NL', 'PL'];
const CEFR = { C2: 15, C1: 40, B2: 30, B1: 15 };

export interface NewCandidate {
  profile: CandidateInput;
  source: CandidateInput['source'];
  /** The locale they read the job in, when they apply on a career site. */
  locale: string;
  name: { first_name: string; last_name: string };
}

/**
 * A candidate for the opening, as their CV reads once parsed: most live in the job's country, some
 * apply from abroad. Skills come from the role, experience and schooling fit their background, and
 * the extraction records the parser's source document and confidence.
 */
export function newCandidate(
  seed: SeedContext,
  template: JobTemplate,
  organization: OrganizationSeed,
): NewCandidate {
  const { random } = seed;
  const country: CountryCode = random.chance(0.8) ? organization.country : random.pick(MOBILE);
  const first_name = random.pick(FIRST_NAMES[country]);
  const last_name = random.pick(LAST_NAMES[country]);
  const years = random.int(0, 18) + (random.chance(0.3) ? 0.5 : 0);
  const department = DEPARTMENTS.find((candidate) => candidate.key === template.department);
  const headline = random.chance(0.5)
    ? template.designation
    : random.pick(department?.roles ?? [template.designation]);
  const graduated = 2026 - Math.floor(years) - random.int(0, 2);

  const education =
    template.department === 'ops'
      ? [{ ...VOCATIONAL[country], graduation_year: graduated }]
      : (() => {
          const [degree, field] = random.pick(DEGREES[template.department] ?? [['BSc', 'Business']]);
          const first = {
            degree,
            field,
            institution: random.pick(UNIVERSITIES[country]),
            graduation_year: graduated,
          };
          return random.chance(0.2) && degree !== 'MSc'
            ? [
                first,
                {
                  degree: 'MSc',
                  field,
                  institution: random.pick(UNIVERSITIES[country]),
                  graduation_year: graduated + 1,
                },
              ]
            : [first];
        })();

  const native = LANGUAGE_OF[country];
  const languages = [{ language: native, proficiency: 'Native' }];
  if (native !== 'en') languages.push({ language: 'en', proficiency: random.weighted(CEFR) });
  if (random.chance(0.2)) {
    const other = random.pick(['de', 'fr', 'es', 'nl'].filter((language) => language !== native));
    languages.push({ language: other, proficiency: random.weighted({ B2: 50, B1: 35, C1: 15 }) });
  }

  const source = random.weighted(SOURCE_WEIGHTS);
  const skills = sample(random, template.skills, random.int(4, Math.min(8, template.skills.length)));
  const email = `${ascii(first_name)}.${ascii(last_name)}${random.int(1, 99)}@mail.example`;
  return {
    source,
    locale: COUNTRY_LOCALE[country],
    name: { first_name, last_name },
    profile: {
      first_name,
      last_name,
      email,
      location: random.pick(CITIES[country]),
      country,
      headline: years < 1 ? `Graduate, ${education[0]?.field ?? template.designation}` : headline,
      current_employer: years < 1 || random.chance(0.08) ? null : random.pick(EMPLOYERS),
      source,
      skills,
      years_of_experience: years,
      education,
      languages,
      extraction: {
        source: random.weighted(EXTRACTION_WEIGHTS),
        confidence: Math.round((0.62 + random.float() * 0.36) * 100) / 100,
      },
    },
  };
}
