/**
 * Static demo content for the HR and recruitment module: a European heat-pump and home-energy group
 * ("Halcyon", fictional, on the reserved `.example` domain) with national employing organisations,
 * employer brands, career sites, departments, job templates with localised titles, and the names,
 * places and schools people and candidates are drawn from.
 */
import type { EmploymentType, LeaveType } from '../events/hrm';

export type CountryCode = 'GB' | 'DE' | 'FR' | 'ES' | 'NL' | 'PL';
export type Locale = 'en-GB' | 'de-DE' | 'fr-FR' | 'es-ES' | 'nl-NL';

export interface OrganizationSeed {
  key: string;
  name: string;
  legal_name: string;
  country: CountryCode;
  industry: string;
  website: string;
  headquarters_city: string;
  default_language: string;
  default_currency: string;
  timezone: string;
  date_format: string;
  /** Salary bands are in GBP; this converts them to the organisation's currency. */
  gbp_rate: number;
  /** Hours ahead of UTC in November (for attendance times). */
  utc_offset: number;
  /** Dormant entities are deactivated during the season. */
  dormant?: boolean;
}

export const ORGANIZATIONS: readonly OrganizationSeed[] = [
  {
    key: 'uk',
    name: 'Halcyon UK',
    legal_name: 'Halcyon Energy UK Ltd',
    country: 'GB',
    industry: 'Home energy technology',
    website: 'https://www.halcyon.example/en-gb',
    headquarters_city: 'Manchester',
    default_language: 'en-GB',
    default_currency: 'GBP',
    timezone: 'Europe/London',
    date_format: 'dd/mm/yyyy',
    gbp_rate: 1,
    utc_offset: 0,
  },
  {
    key: 'de',
    name: 'Halcyon Deutschland',
    legal_name: 'Halcyon Energie Deutschland GmbH',
    country: 'DE',
    industry: 'Home energy technology',
    website: 'https://www.halcyon.example/de-de',
    headquarters_city: 'Munich',
    default_language: 'de-DE',
    default_currency: 'EUR',
    timezone: 'Europe/Berlin',
    date_format: 'dd.mm.yyyy',
    gbp_rate: 1.17,
    utc_offset: 1,
  },
  {
    key: 'fr',
    name: 'Halcyon France',
    legal_name: 'Halcyon Énergie France SAS',
    country: 'FR',
    industry: 'Home energy technology',
    website: 'https://www.halcyon.example/fr-fr',
    headquarters_city: 'Lyon',
    default_language: 'fr-FR',
    default_currency: 'EUR',
    timezone: 'Europe/Paris',
    date_format: 'dd/mm/yyyy',
    gbp_rate: 1.12,
    utc_offset: 1,
  },
  {
    key: 'es',
    name: 'Halcyon España',
    legal_name: 'Halcyon Energía España S.L.',
    country: 'ES',
    industry: 'Home energy technology',
    website: 'https://www.halcyon.example/es-es',
    headquarters_city: 'Valencia',
    default_language: 'es-ES',
    default_currency: 'EUR',
    timezone: 'Europe/Madrid',
    date_format: 'dd/mm/yyyy',
    gbp_rate: 0.95,
    utc_offset: 1,
  },
  {
    key: 'nl',
    name: 'Halcyon Nederland',
    legal_name: 'Halcyon Energie Nederland B.V.',
    country: 'NL',
    industry: 'Home energy technology',
    website: 'https://www.halcyon.example/nl-nl',
    headquarters_city: 'Utrecht',
    default_language: 'nl-NL',
    default_currency: 'EUR',
    timezone: 'Europe/Amsterdam',
    date_format: 'dd-mm-yyyy',
    gbp_rate: 1.15,
    utc_offset: 1,
  },
  {
    key: 'pl',
    name: 'Halcyon Polska',
    legal_name: 'Halcyon Energia Polska sp. z o.o.',
    country: 'PL',
    industry: 'Home energy technology',
    website: 'https://www.halcyon.example/pl-pl',
    headquarters_city: 'Wrocław',
    default_language: 'pl-PL',
    default_currency: 'PLN',
    timezone: 'Europe/Warsaw',
    date_format: 'dd.mm.yyyy',
    gbp_rate: 4.2,
    utc_offset: 1,
    dormant: true,
  },
];

export interface BrandSeed {
  key: string;
  organization: string;
  name: string;
  domain: string;
  primary_color: string;
  secondary_color: string;
  tagline: string | null;
  /** Retired during the season. */
  retired?: boolean;
}

export const BRANDS: readonly BrandSeed[] = [
  {
    key: 'halcyon',
    organization: 'uk',
    name: 'Halcyon',
    domain: 'halcyon.example',
    primary_color: '#0B5D4B',
    secondary_color: '#F2B134',
    tagline: 'Warmer homes, lighter footprint',
  },
  {
    key: 'warmwerk',
    organization: 'de',
    name: 'Warmwerk',
    domain: 'warmwerk.example',
    primary_color: '#C8102E',
    secondary_color: '#1F2A44',
    tagline: 'Wärmepumpen vom Meisterbetrieb',
  },
  {
    key: 'lumen',
    organization: 'nl',
    name: 'Lumen Labs',
    domain: 'lumenlabs.example',
    primary_color: '#3D2B8F',
    secondary_color: '#00C2A8',
    tagline: 'Software for the energy transition',
  },
  {
    key: 'outlet',
    organization: 'uk',
    name: 'Halcyon Outlet',
    domain: 'outlet.halcyon.example',
    primary_color: '#4A4A4A',
    secondary_color: '#F2B134',
    tagline: 'Refurbished smart thermostats',
    retired: true,
  },
];

export interface CareerSiteSeed {
  key: string;
  organization: string;
  brand: string;
  name: string;
  url: string;
  default_locale: string;
  locales: readonly string[];
  /** `draft`: never published; `retired`: published, then taken offline with its brand. */
  lifecycle: 'live' | 'draft' | 'retired';
}

export const CAREER_SITES: readonly CareerSiteSeed[] = [
  {
    key: 'halcyon',
    organization: 'uk',
    brand: 'halcyon',
    name: 'Halcyon Careers',
    url: 'https://careers.halcyon.example',
    default_locale: 'en-GB',
    locales: ['en-GB', 'de-DE', 'fr-FR', 'es-ES', 'nl-NL'],
    lifecycle: 'live',
  },
  {
    key: 'warmwerk',
    organization: 'de',
    brand: 'warmwerk',
    name: 'Warmwerk Karriere',
    url: 'https://karriere.warmwerk.example',
    default_locale: 'de-DE',
    locales: ['de-DE', 'en-GB'],
    lifecycle: 'live',
  },
  {
    key: 'lumen',
    organization: 'nl',
    brand: 'lumen',
    name: 'Lumen Labs Jobs',
    url: 'https://jobs.lumenlabs.example',
    default_locale: 'en-GB',
    locales: ['en-GB', 'nl-NL'],
    lifecycle: 'live',
  },
  {
    key: 'outlet',
    organization: 'uk',
    brand: 'outlet',
    name: 'Halcyon Outlet Jobs',
    url: 'https://jobs.outlet.halcyon.example',
    default_locale: 'en-GB',
    locales: ['en-GB'],
    lifecycle: 'retired',
  },
  {
    key: 'polska',
    organization: 'pl',
    brand: 'halcyon',
    name: 'Halcyon Kariera Polska',
    url: 'https://careers.halcyon.example/pl-pl',
    default_locale: 'pl-PL',
    locales: ['pl-PL', 'en-GB'],
    lifecycle: 'draft',
  },
];

export interface DepartmentSeed {
  key: string;
  name: string;
  code: string;
  parent?: string;
  /** Title of the head of department. */
  head: string;
  /** Title of a team manager. */
  manager: string;
  /** Individual-contributor designations, most common first. */
  roles: readonly string[];
  headcount: number;
  /** Where its people are employed, by organisation key. */
  organizations: Readonly<Record<string, number>>;
  /** Share of attendance worked from home. */
  remote_share: number;
  /** Merged away before the season: disabled, no staff. */
  disabled?: boolean;
}

export const DEPARTMENTS: readonly DepartmentSeed[] = [
  {
    key: 'exe',
    name: 'Executive Office',
    code: 'EXE',
    head: 'Chief Executive Officer',
    manager: 'Chief of Staff',
    roles: ['Chief of Staff', 'Executive Assistant'],
    headcount: 3,
    organizations: { uk: 1 },
    remote_share: 0.05,
  },
  {
    key: 'eng',
    name: 'Engineering',
    code: 'ENG',
    head: 'VP Engineering',
    manager: 'Engineering Manager',
    roles: [
      'Software Engineer',
      'Senior Software Engineer',
      'Backend Engineer',
      'Frontend Engineer',
      'Embedded Software Engineer',
      'Site Reliability Engineer',
      'QA Automation Engineer',
      'Staff Engineer',
    ],
    headcount: 36,
    organizations: { uk: 40, nl: 30, de: 20, es: 10 },
    remote_share: 0.3,
  },
  {
    key: 'prd',
    name: 'Product',
    code: 'PRD',
    head: 'Head of Product',
    manager: 'Group Product Manager',
    roles: ['Product Manager', 'Senior Product Designer', 'Product Designer', 'UX Researcher'],
    headcount: 10,
    organizations: { uk: 60, nl: 40 },
    remote_share: 0.25,
  },
  {
    key: 'dat',
    name: 'Data & Analytics',
    code: 'DAT',
    head: 'Head of Data',
    manager: 'Analytics Manager',
    roles: ['Data Engineer', 'Data Scientist', 'Analytics Engineer', 'Data Analyst'],
    headcount: 10,
    organizations: { nl: 60, uk: 40 },
    remote_share: 0.3,
  },
  {
    key: 'sal',
    name: 'Sales',
    code: 'SAL',
    head: 'Sales Director',
    manager: 'Regional Sales Manager',
    roles: [
      'Account Executive',
      'Partner Sales Manager',
      'Sales Development Representative',
      'Home Energy Advisor',
    ],
    headcount: 26,
    organizations: { uk: 30, de: 25, fr: 20, es: 10, nl: 15 },
    remote_share: 0.1,
  },
  {
    key: 'mkt',
    name: 'Marketing',
    code: 'MKT',
    head: 'Marketing Director',
    manager: 'Marketing Manager',
    roles: ['Performance Marketing Manager', 'Content Marketer', 'Brand Designer', 'CRM Specialist'],
    headcount: 12,
    organizations: { uk: 50, de: 25, fr: 25 },
    remote_share: 0.2,
  },
  {
    key: 'sup',
    name: 'Customer Support',
    code: 'SUP',
    head: 'Head of Customer Support',
    manager: 'Customer Support Team Lead',
    roles: ['Customer Support Specialist', 'Technical Support Specialist', 'Complaints Handler'],
    headcount: 24,
    organizations: { es: 40, uk: 30, fr: 15, de: 15 },
    remote_share: 0.15,
  },
  {
    key: 'ops',
    name: 'Field Operations',
    code: 'OPS',
    head: 'Director of Field Operations',
    manager: 'Installation Team Leader',
    roles: [
      'Heat Pump Installation Engineer',
      'Field Service Technician',
      'Electrician',
      'Installation Planner',
      'Surveyor',
    ],
    headcount: 45,
    organizations: { uk: 35, de: 35, fr: 15, nl: 10, es: 5 },
    remote_share: 0,
  },
  {
    key: 'fin',
    name: 'Finance',
    code: 'FIN',
    head: 'Chief Financial Officer',
    manager: 'Financial Controller',
    roles: ['Financial Analyst', 'Accountant', 'Accounts Payable Specialist', 'Payroll Specialist'],
    headcount: 10,
    organizations: { uk: 70, de: 30 },
    remote_share: 0.15,
  },
  {
    key: 'ppl',
    name: 'People',
    code: 'PPL',
    head: 'Chief People Officer',
    manager: 'People Operations Manager',
    roles: ['People Partner', 'People Operations Specialist', 'Learning & Development Partner'],
    headcount: 8,
    organizations: { uk: 60, de: 20, es: 20 },
    remote_share: 0.15,
  },
  {
    key: 'ta',
    name: 'Talent Acquisition',
    code: 'TA',
    parent: 'ppl',
    head: 'Head of Talent Acquisition',
    manager: 'Recruitment Lead',
    roles: ['Talent Acquisition Partner', 'Technical Recruiter', 'Recruitment Coordinator'],
    headcount: 10,
    organizations: { uk: 30, de: 20, fr: 15, es: 15, nl: 20 },
    remote_share: 0.2,
  },
  {
    key: 'leg',
    name: 'Legal & Compliance',
    code: 'LEG',
    head: 'General Counsel',
    manager: 'Senior Legal Counsel',
    roles: ['Legal Counsel', 'Privacy Counsel', 'Compliance Analyst'],
    headcount: 6,
    organizations: { uk: 70, de: 30 },
    remote_share: 0.2,
  },
  {
    key: 'fac',
    name: 'Facilities',
    code: 'FAC',
    head: 'Facilities Manager',
    manager: 'Facilities Coordinator',
    roles: ['Facilities Coordinator'],
    headcount: 0,
    organizations: { uk: 1 },
    remote_share: 0,
    disabled: true,
  },
];

export const EMPLOYMENT_WEIGHTS: Readonly<Record<EmploymentType, number>> = {
  'Full-time': 82,
  'Part-time': 8,
  Contract: 7,
  Intern: 3,
};

export interface TeamSeed {
  organization: string;
  department: string;
  name: string;
  /** Deactivated with its dormant organisation. */
  paused?: boolean;
}

/** Recruiting teams: one per country and department that hires. */
export const TEAMS: readonly TeamSeed[] = [
  { organization: 'uk', department: 'eng', name: 'Engineering Recruiting UK' },
  { organization: 'nl', department: 'eng', name: 'Engineering Recruiting Netherlands' },
  { organization: 'de', department: 'eng', name: 'Engineering Recruiting Germany' },
  { organization: 'uk', department: 'ops', name: 'Field Operations Hiring UK' },
  { organization: 'de', department: 'ops', name: 'Field Operations Hiring Germany' },
  { organization: 'fr', department: 'ops', name: 'Field Operations Hiring France' },
  { organization: 'uk', department: 'sal', name: 'Sales Recruiting UK' },
  { organization: 'de', department: 'sal', name: 'Sales Recruiting Germany' },
  { organization: 'es', department: 'sup', name: 'Customer Support Hiring Spain' },
  { organization: 'fr', department: 'sup', name: 'Customer Support Hiring France' },
  { organization: 'nl', department: 'dat', name: 'Data & Product Recruiting Netherlands' },
  { organization: 'uk', department: 'fin', name: 'Corporate Functions Recruiting UK' },
  { organization: 'pl', department: 'sup', name: 'Customer Support Hiring Poland', paused: true },
];

export interface JobTemplate {
  department: string;
  designation: string;
  titles: Readonly<Record<Locale, string>>;
  /** Annual salary band in GBP. */
  salary: readonly [number, number];
  employment_type: EmploymentType;
  remote_policy: 'On-site' | 'Hybrid' | 'Remote';
  /** Organisations that hire for it. */
  organizations: readonly string[];
  /** The brand it is advertised under, when not the group brand. */
  brand?: Readonly<Record<string, string>>;
  description: string;
  skills: readonly string[];
}

const DE = '(m/w/d)';
const FR = '(H/F)';

export const JOB_TEMPLATES: readonly JobTemplate[] = [
  {
    department: 'eng',
    designation: 'Senior Software Engineer',
    titles: {
      'en-GB': 'Senior Software Engineer, Platform',
      'de-DE': `Senior Software Engineer Plattform ${DE}`,
      'fr-FR': `Ingénieur logiciel senior – Plateforme ${FR}`,
      'es-ES': 'Ingeniero/a de software sénior – Plataforma',
      'nl-NL': 'Senior software engineer platform',
    },
    salary: [70_000, 90_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['uk', 'nl', 'de'],
    brand: { nl: 'lumen' },
    description:
      'Build the platform that connects 120,000 heat pumps and thermostats to our cloud. ' +
      'You will own services end to end, from design reviews to on-call.',
    skills: [
      'TypeScript',
      'Node.js',
      'PostgreSQL',
      'Kubernetes',
      'AWS',
      'Event sourcing',
      'Kafka',
      'Go',
      'gRPC',
    ],
  },
  {
    department: 'eng',
    designation: 'Backend Engineer',
    titles: {
      'en-GB': 'Backend Engineer, Energy Data',
      'de-DE': `Backend-Entwickler Energiedaten ${DE}`,
      'fr-FR': `Développeur backend – Données énergétiques ${FR}`,
      'es-ES': 'Desarrollador/a backend – Datos energéticos',
      'nl-NL': 'Backend developer energiedata',
    },
    salary: [55_000, 72_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['uk', 'nl', 'es'],
    brand: { nl: 'lumen' },
    description:
      'Ingest and model half-hourly smart-meter and device telemetry so customers see what their home uses. ' +
      'Python and SQL every day, streaming when it matters.',
    skills: ['Python', 'SQL', 'FastAPI', 'Apache Kafka', 'TimescaleDB', 'Docker', 'Terraform', 'dbt'],
  },
  {
    department: 'eng',
    designation: 'Frontend Engineer',
    titles: {
      'en-GB': 'Frontend Engineer, Customer App',
      'de-DE': `Frontend-Entwickler Kunden-App ${DE}`,
      'fr-FR': `Développeur frontend – Application client ${FR}`,
      'es-ES': 'Desarrollador/a frontend – App de clientes',
      'nl-NL': 'Frontend developer klantapp',
    },
    salary: [52_000, 68_000],
    employment_type: 'Full-time',
    remote_policy: 'Remote',
    organizations: ['uk', 'es'],
    description:
      'Shape the app customers use to control their heating and follow an installation. ' +
      'You care about accessibility, performance and clear copy.',
    skills: ['TypeScript', 'React', 'React Native', 'Accessibility', 'GraphQL', 'Playwright', 'CSS', 'Figma'],
  },
  {
    department: 'eng',
    designation: 'Site Reliability Engineer',
    titles: {
      'en-GB': 'Site Reliability Engineer',
      'de-DE': `Site Reliability Engineer ${DE}`,
      'fr-FR': `Ingénieur fiabilité des sites (SRE) ${FR}`,
      'es-ES': 'Ingeniero/a de fiabilidad (SRE)',
      'nl-NL': 'Site reliability engineer',
    },
    salary: [65_000, 85_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['uk', 'nl'],
    description:
      'Keep device connectivity and customer services reliable through winter peaks. ' +
      'Observability, capacity planning and calm incident response.',
    skills: ['Kubernetes', 'Terraform', 'AWS', 'Prometheus', 'Grafana', 'Linux', 'Go', 'Incident management'],
  },
  {
    department: 'eng',
    designation: 'Embedded Software Engineer',
    titles: {
      'en-GB': 'Embedded Software Engineer, Heat Pump Controls',
      'de-DE': `Embedded-Softwareentwickler Wärmepumpensteuerung ${DE}`,
      'fr-FR': `Ingénieur logiciel embarqué – Régulation de pompes à chaleur ${FR}`,
      'es-ES': 'Ingeniero/a de software embebido – Control de bombas de calor',
      'nl-NL': 'Embedded software engineer warmtepompregeling',
    },
    salary: [60_000, 80_000],
    employment_type: 'Full-time',
    remote_policy: 'On-site',
    organizations: ['de', 'uk'],
    description:
      'Write the control firmware that runs our heat pumps efficiently and safely. ' +
      'You will work with hardware engineers in our Munich lab.',
    skills: ['C', 'C++', 'RTOS', 'Modbus', 'Control theory', 'ARM Cortex-M', 'Unit testing', 'CAN bus'],
  },
  {
    department: 'eng',
    designation: 'QA Automation Engineer',
    titles: {
      'en-GB': 'QA Automation Engineer',
      'de-DE': `QA-Automatisierungsingenieur ${DE}`,
      'fr-FR': `Ingénieur QA automatisation ${FR}`,
      'es-ES': 'Ingeniero/a de automatización QA',
      'nl-NL': 'QA automation engineer',
    },
    salary: [45_000, 60_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['es', 'uk'],
    description:
      'Automate the tests that guard our app and device releases, from API contracts to end-to-end runs ' +
      'on real thermostats in our test rig.',
    skills: ['Playwright', 'Cypress', 'TypeScript', 'Python', 'CI/CD', 'API testing', 'Test strategy'],
  },
  {
    department: 'eng',
    designation: 'Engineering Manager',
    titles: {
      'en-GB': 'Engineering Manager, Installer Platform',
      'de-DE': `Engineering Manager Installateur-Plattform ${DE}`,
      'fr-FR': `Engineering Manager – Plateforme installateurs ${FR}`,
      'es-ES': 'Engineering Manager – Plataforma de instaladores',
      'nl-NL': 'Engineering manager installateursplatform',
    },
    salary: [85_000, 105_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['uk', 'nl'],
    description:
      'Lead a team of seven engineers building the tools our installers use on site. ' +
      'Hiring, coaching and delivery, with some hands-on review.',
    skills: [
      'People management',
      'Agile delivery',
      'System design',
      'TypeScript',
      'Hiring',
      'Stakeholder management',
    ],
  },
  {
    department: 'prd',
    designation: 'Product Manager',
    titles: {
      'en-GB': 'Product Manager, Installer Tools',
      'de-DE': `Produktmanager Installateur-Tools ${DE}`,
      'fr-FR': `Chef de produit – Outils installateurs ${FR}`,
      'es-ES': 'Product Manager – Herramientas para instaladores',
      'nl-NL': 'Productmanager installateurstools',
    },
    salary: [62_000, 80_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['uk', 'nl'],
    description:
      'Own the survey, quoting and commissioning tools used by 600 installers. ' +
      'You will spend time on site and turn what you see into a clear roadmap.',
    skills: [
      'Product discovery',
      'Roadmapping',
      'User research',
      'SQL',
      'Jira',
      'B2B SaaS',
      'Stakeholder management',
    ],
  },
  {
    department: 'prd',
    designation: 'Senior Product Designer',
    titles: {
      'en-GB': 'Senior Product Designer',
      'de-DE': `Senior Product Designer ${DE}`,
      'fr-FR': `Product designer senior ${FR}`,
      'es-ES': 'Diseñador/a de producto sénior',
      'nl-NL': 'Senior productontwerper',
    },
    salary: [58_000, 75_000],
    employment_type: 'Full-time',
    remote_policy: 'Remote',
    organizations: ['uk', 'nl'],
    brand: { nl: 'lumen' },
    description:
      'Design the customer journey from first quote to a warm home, across web, app and the thermostat itself.',
    skills: [
      'Figma',
      'Interaction design',
      'Design systems',
      'Prototyping',
      'User research',
      'Accessibility',
    ],
  },
  {
    department: 'dat',
    designation: 'Data Engineer',
    titles: {
      'en-GB': 'Data Engineer',
      'de-DE': `Data Engineer ${DE}`,
      'fr-FR': `Ingénieur données ${FR}`,
      'es-ES': 'Ingeniero/a de datos',
      'nl-NL': 'Data engineer',
    },
    salary: [55_000, 72_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['nl', 'uk'],
    brand: { nl: 'lumen' },
    description:
      'Build the warehouse and pipelines behind installation planning, finance and device analytics.',
    skills: ['Python', 'SQL', 'dbt', 'Airflow', 'Snowflake', 'Spark', 'Data modelling', 'AWS'],
  },
  {
    department: 'dat',
    designation: 'Data Scientist',
    titles: {
      'en-GB': 'Data Scientist, Demand Forecasting',
      'de-DE': `Data Scientist Nachfrageprognose ${DE}`,
      'fr-FR': `Data scientist – Prévision de la demande ${FR}`,
      'es-ES': 'Científico/a de datos – Previsión de demanda',
      'nl-NL': 'Data scientist vraagvoorspelling',
    },
    salary: [60_000, 78_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['nl'],
    brand: { nl: 'lumen' },
    description:
      'Forecast installation demand and heat-pump load so we staff the right crews and size the right units.',
    skills: [
      'Python',
      'Time series forecasting',
      'scikit-learn',
      'PyTorch',
      'SQL',
      'Statistics',
      'Experimentation',
    ],
  },
  {
    department: 'sal',
    designation: 'Account Executive',
    titles: {
      'en-GB': 'Account Executive, Residential',
      'de-DE': `Account Executive Privatkunden ${DE}`,
      'fr-FR': `Chargé d'affaires – Particuliers ${FR}`,
      'es-ES': 'Ejecutivo/a de cuentas – Residencial',
      'nl-NL': 'Accountmanager particulieren',
    },
    salary: [32_000, 42_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['uk', 'de', 'fr', 'nl'],
    description:
      'Help homeowners choose the right heat pump, from the first call to a signed quote. ' +
      'Uncapped commission on top of the base salary.',
    skills: [
      'Consultative selling',
      'Salesforce',
      'Negotiation',
      'Home energy',
      'Objection handling',
      'Pipeline management',
    ],
  },
  {
    department: 'sal',
    designation: 'Partner Sales Manager',
    titles: {
      'en-GB': 'Partner Sales Manager',
      'de-DE': `Partner Sales Manager Fachhandwerk ${DE}`,
      'fr-FR': `Responsable des ventes partenaires ${FR}`,
      'es-ES': 'Responsable de ventas a partners',
      'nl-NL': 'Partner sales manager',
    },
    salary: [48_000, 62_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['de', 'uk'],
    brand: { de: 'warmwerk' },
    description: 'Grow our network of independent installers and builders merchants in your region.',
    skills: [
      'Channel sales',
      'Key account management',
      'HubSpot',
      'Negotiation',
      'HVAC market',
      'Forecasting',
    ],
  },
  {
    department: 'mkt',
    designation: 'Performance Marketing Manager',
    titles: {
      'en-GB': 'Performance Marketing Manager',
      'de-DE': `Performance Marketing Manager ${DE}`,
      'fr-FR': `Responsable marketing à la performance ${FR}`,
      'es-ES': 'Responsable de marketing de performance',
      'nl-NL': 'Performance marketing manager',
    },
    salary: [50_000, 65_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['uk', 'de'],
    description:
      'Run paid search and social across five markets and prove what works with clean attribution.',
    skills: ['Google Ads', 'Meta Ads', 'GA4', 'SQL', 'A/B testing', 'Attribution', 'Budget management'],
  },
  {
    department: 'mkt',
    designation: 'Content Marketer',
    titles: {
      'en-GB': 'Content Marketing Lead',
      'de-DE': `Content-Marketing-Lead ${DE}`,
      'fr-FR': `Responsable marketing de contenu ${FR}`,
      'es-ES': 'Responsable de marketing de contenidos',
      'nl-NL': 'Lead contentmarketing',
    },
    salary: [45_000, 58_000],
    employment_type: 'Full-time',
    remote_policy: 'Remote',
    organizations: ['uk', 'fr'],
    description: 'Explain heat pumps, grants and running costs so clearly that people share it.',
    skills: ['Copywriting', 'SEO', 'Content strategy', 'Editing', 'CMS', 'Video storytelling'],
  },
  {
    department: 'sup',
    designation: 'Customer Support Specialist',
    titles: {
      'en-GB': 'Customer Support Specialist',
      'de-DE': `Kundenservice-Mitarbeiter ${DE}`,
      'fr-FR': `Conseiller service client ${FR}`,
      'es-ES': 'Especialista de atención al cliente',
      'nl-NL': 'Klantenservicemedewerker',
    },
    salary: [24_000, 29_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['es', 'fr', 'uk', 'de'],
    description:
      'Answer customers by phone, chat and email, and solve most questions about their system on the first contact.',
    skills: [
      'Customer service',
      'Zendesk',
      'Troubleshooting',
      'Empathy',
      'Written communication',
      'Multilingual support',
    ],
  },
  {
    department: 'sup',
    designation: 'Customer Support Team Lead',
    titles: {
      'en-GB': 'Customer Support Team Lead',
      'de-DE': `Teamleiter Kundenservice ${DE}`,
      'fr-FR': `Chef d'équipe service client ${FR}`,
      'es-ES': 'Jefe/a de equipo de atención al cliente',
      'nl-NL': 'Teamleider klantenservice',
    },
    salary: [32_000, 40_000],
    employment_type: 'Full-time',
    remote_policy: 'On-site',
    organizations: ['es', 'fr'],
    description:
      'Lead a team of ten specialists, coach on quality and keep the queue healthy through winter.',
    skills: ['Team leadership', 'Coaching', 'Zendesk', 'Workforce planning', 'Quality assurance', 'KPIs'],
  },
  {
    department: 'ops',
    designation: 'Heat Pump Installation Engineer',
    titles: {
      'en-GB': 'Heat Pump Installation Engineer',
      'de-DE': `Anlagenmechaniker SHK – Wärmepumpen ${DE}`,
      'fr-FR': `Technicien installateur de pompes à chaleur ${FR}`,
      'es-ES': 'Técnico/a instalador/a de bombas de calor',
      'nl-NL': 'Monteur warmtepompen',
    },
    salary: [34_000, 44_000],
    employment_type: 'Full-time',
    remote_policy: 'On-site',
    organizations: ['uk', 'de', 'fr', 'nl'],
    brand: { de: 'warmwerk' },
    description:
      'Install air-source heat pumps, cylinders and controls in two-person crews. ' +
      'Company van, tools and MCS or F-gas training provided.',
    skills: [
      'Heat pump installation',
      'F-gas certification',
      'Plumbing',
      'Wet heating systems',
      'Electrical wiring',
      'Commissioning',
    ],
  },
  {
    department: 'ops',
    designation: 'Field Service Technician',
    titles: {
      'en-GB': 'Field Service Technician',
      'de-DE': `Servicetechniker im Außendienst ${DE}`,
      'fr-FR': `Technicien de maintenance itinérant ${FR}`,
      'es-ES': 'Técnico/a de servicio de campo',
      'nl-NL': 'Servicemonteur buitendienst',
    },
    salary: [32_000, 40_000],
    employment_type: 'Full-time',
    remote_policy: 'On-site',
    organizations: ['uk', 'de', 'fr', 'es'],
    brand: { de: 'warmwerk' },
    description:
      'Service and repair heat pumps and controls across your region; one on-call weekend a month.',
    skills: [
      'Fault finding',
      'Refrigeration',
      'Electrical testing',
      'Heat pump servicing',
      'Customer service',
      'Driving licence',
    ],
  },
  {
    department: 'ops',
    designation: 'Installation Planner',
    titles: {
      'en-GB': 'Installation Planner',
      'de-DE': `Einsatzplaner Montage ${DE}`,
      'fr-FR': `Planificateur d'installations ${FR}`,
      'es-ES': 'Planificador/a de instalaciones',
      'nl-NL': 'Installatieplanner',
    },
    salary: [28_000, 35_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['uk', 'de'],
    description: 'Schedule crews, materials and customers so every installation starts on the day promised.',
    skills: ['Scheduling', 'Logistics', 'Excel', 'ERP systems', 'Customer communication', 'Problem solving'],
  },
  {
    department: 'fin',
    designation: 'Financial Analyst',
    titles: {
      'en-GB': 'Financial Analyst',
      'de-DE': `Finanzanalyst ${DE}`,
      'fr-FR': `Analyste financier ${FR}`,
      'es-ES': 'Analista financiero/a',
      'nl-NL': 'Financieel analist',
    },
    salary: [42_000, 55_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['uk'],
    description:
      'Own the monthly forecast for installations and service, and the models behind pricing decisions.',
    skills: ['Financial modelling', 'Excel', 'SQL', 'Forecasting', 'IFRS', 'Power BI'],
  },
  {
    department: 'ppl',
    designation: 'People Partner',
    titles: {
      'en-GB': 'People Partner',
      'de-DE': `HR Business Partner ${DE}`,
      'fr-FR': `HR Business Partner ${FR}`,
      'es-ES': 'HR Business Partner',
      'nl-NL': 'HR business partner',
    },
    salary: [45_000, 58_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['uk', 'de'],
    description:
      'Partner with field and office leaders on organisation design, performance and employee relations.',
    skills: [
      'Employee relations',
      'Employment law',
      'Performance management',
      'Coaching',
      'HRIS',
      'Change management',
    ],
  },
  {
    department: 'ta',
    designation: 'Talent Acquisition Partner',
    titles: {
      'en-GB': 'Talent Acquisition Partner',
      'de-DE': `Talent Acquisition Partner ${DE}`,
      'fr-FR': `Chargé de recrutement ${FR}`,
      'es-ES': 'Técnico/a de selección',
      'nl-NL': 'Recruiter',
    },
    salary: [38_000, 50_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['uk', 'de', 'nl'],
    description: 'Run full-cycle hiring for field and tech roles and make every candidate feel respected.',
    skills: [
      'Full-cycle recruiting',
      'Sourcing',
      'LinkedIn Recruiter',
      'Interviewing',
      'ATS',
      'Employer branding',
    ],
  },
  {
    department: 'leg',
    designation: 'Privacy Counsel',
    titles: {
      'en-GB': 'Privacy Counsel',
      'de-DE': `Syndikusrechtsanwalt Datenschutz ${DE}`,
      'fr-FR': `Juriste protection des données ${FR}`,
      'es-ES': 'Abogado/a de protección de datos',
      'nl-NL': 'Privacyjurist',
    },
    salary: [70_000, 90_000],
    employment_type: 'Full-time',
    remote_policy: 'Hybrid',
    organizations: ['uk', 'de'],
    description:
      'Advise on smart-meter and device data, customer consent and our data processing agreements.',
    skills: ['GDPR', 'Data protection', 'Contract drafting', 'Privacy impact assessments', 'Consumer law'],
  },
];

/** The locale each country's organisation publishes in besides English. */
export const COUNTRY_LOCALE: Readonly<Record<CountryCode, string>> = {
  GB: 'en-GB',
  DE: 'de-DE',
  FR: 'fr-FR',
  ES: 'es-ES',
  NL: 'nl-NL',
  PL: 'pl-PL',
};

export const FIRST_NAMES: Readonly<Record<CountryCode, readonly string[]>> = {
  GB: [
    'Oliver',
    'Amelia',
    'Harry',
    'Isla',
    'George',
    'Ava',
    'Jack',
    'Mia',
    'Charlie',
    'Grace',
    'Thomas',
    'Freya',
    'James',
    'Lily',
    'William',
    'Evie',
    'Daniel',
    'Sophie',
    'Samuel',
    'Ruby',
    'Joseph',
    'Chloe',
    'Priya',
    'Arjun',
  ],
  DE: [
    'Lukas',
    'Anna',
    'Leon',
    'Lena',
    'Felix',
    'Marie',
    'Jonas',
    'Sophie',
    'Paul',
    'Laura',
    'Maximilian',
    'Hannah',
    'Tim',
    'Julia',
    'Jan',
    'Katharina',
    'Niklas',
    'Lea',
    'Tobias',
    'Sarah',
    'Florian',
    'Johanna',
  ],
  FR: [
    'Lucas',
    'Emma',
    'Hugo',
    'Léa',
    'Louis',
    'Chloé',
    'Gabriel',
    'Manon',
    'Arthur',
    'Camille',
    'Jules',
    'Inès',
    'Nathan',
    'Sarah',
    'Théo',
    'Juliette',
    'Antoine',
    'Clara',
    'Maxime',
    'Élise',
  ],
  ES: [
    'Hugo',
    'Lucía',
    'Martín',
    'Sofía',
    'Daniel',
    'Martina',
    'Pablo',
    'María',
    'Alejandro',
    'Paula',
    'Álvaro',
    'Julia',
    'Adrián',
    'Carmen',
    'Diego',
    'Elena',
    'Javier',
    'Irene',
    'Sergio',
    'Alba',
  ],
  NL: [
    'Daan',
    'Emma',
    'Sem',
    'Julia',
    'Lucas',
    'Mila',
    'Levi',
    'Sophie',
    'Finn',
    'Tess',
    'Milan',
    'Sara',
    'Thijs',
    'Anna',
    'Jesse',
    'Fleur',
    'Ruben',
    'Lotte',
    'Bram',
    'Noor',
  ],
  PL: ['Jakub', 'Zuzanna', 'Antoni', 'Julia', 'Jan', 'Maja', 'Szymon', 'Zofia', 'Filip', 'Hanna'],
};

export const LAST_NAMES: Readonly<Record<CountryCode, readonly string[]>> = {
  GB: [
    'Smith',
    'Jones',
    'Taylor',
    'Brown',
    'Williams',
    'Wilson',
    'Johnson',
    'Davies',
    'Patel',
    'Robinson',
    'Wright',
    'Thompson',
    'Evans',
    'Walker',
    'White',
    'Roberts',
    'Green',
    'Hall',
    'Wood',
    'Jackson',
    'Clarke',
    'Khan',
    'Hughes',
  ],
  DE: [
    'Müller',
    'Schmidt',
    'Schneider',
    'Fischer',
    'Weber',
    'Meyer',
    'Wagner',
    'Becker',
    'Schulz',
    'Hoffmann',
    'Koch',
    'Richter',
    'Klein',
    'Wolf',
    'Schröder',
    'Neumann',
    'Schwarz',
    'Braun',
    'Zimmermann',
    'Krüger',
  ],
  FR: [
    'Martin',
    'Bernard',
    'Dubois',
    'Thomas',
    'Robert',
    'Richard',
    'Petit',
    'Durand',
    'Leroy',
    'Moreau',
    'Simon',
    'Laurent',
    'Lefebvre',
    'Michel',
    'Garcia',
    'Fontaine',
    'Rousseau',
    'Vincent',
    'Muller',
    'Girard',
  ],
  ES: [
    'García',
    'Rodríguez',
    'González',
    'Fernández',
    'López',
    'Martínez',
    'Sánchez',
    'Pérez',
    'Gómez',
    'Martín',
    'Jiménez',
    'Ruiz',
    'Hernández',
    'Díaz',
    'Moreno',
    'Álvarez',
    'Romero',
    'Navarro',
    'Torres',
    'Ortega',
  ],
  NL: [
    'de Jong',
    'Jansen',
    'de Vries',
    'van den Berg',
    'van Dijk',
    'Bakker',
    'Janssen',
    'Visser',
    'Smit',
    'Meijer',
    'de Boer',
    'Mulder',
    'de Groot',
    'Bos',
    'Vos',
    'Peters',
    'Hendriks',
    'van Leeuwen',
    'Dekker',
    'Brouwer',
  ],
  PL: ['Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kowalczyk', 'Kamiński', 'Lewandowski', 'Zieliński'],
};

export const CITIES: Readonly<Record<CountryCode, readonly string[]>> = {
  GB: ['Manchester', 'London', 'Bristol', 'Leeds', 'Birmingham', 'Glasgow'],
  DE: ['Munich', 'Berlin', 'Hamburg', 'Cologne', 'Stuttgart'],
  FR: ['Lyon', 'Paris', 'Nantes', 'Toulouse'],
  ES: ['Valencia', 'Madrid', 'Barcelona', 'Seville'],
  NL: ['Utrecht', 'Amsterdam', 'Eindhoven', 'Rotterdam'],
  PL: ['Wrocław', 'Kraków'],
};

export const LANGUAGE_OF: Readonly<Record<CountryCode, string>> = {
  GB: 'en',
  DE: 'de',
  FR: 'fr',
  ES: 'es',
  NL: 'nl',
  PL: 'pl',
};

export const UNIVERSITIES: Readonly<Record<CountryCode, readonly string[]>> = {
  GB: [
    'University of Manchester',
    'University of Leeds',
    'University of Bristol',
    "King's College London",
    'University of Edinburgh',
    'University of Birmingham',
  ],
  DE: [
    'Technische Universität München',
    'RWTH Aachen',
    'Karlsruher Institut für Technologie',
    'Universität Hamburg',
    'Technische Universität Berlin',
  ],
  FR: ['INSA Lyon', 'Université Paris-Saclay', 'École Centrale de Nantes', 'Université Toulouse III'],
  ES: [
    'Universidad Politécnica de Madrid',
    'Universitat Politècnica de València',
    'Universitat de Barcelona',
    'Universidad de Sevilla',
  ],
  NL: ['TU Delft', 'Universiteit Utrecht', 'TU Eindhoven', 'Universiteit van Amsterdam'],
  PL: ['Politechnika Wrocławska', 'Uniwersytet Jagielloński'],
};

/** Trade qualifications of field staff, by country. */
export const VOCATIONAL: Readonly<
  Record<CountryCode, { degree: string; field: string; institution: string }>
> = {
  GB: {
    degree: 'NVQ Level 3',
    field: 'Plumbing and Domestic Heating',
    institution: 'The Manchester College',
  },
  DE: {
    degree: 'Gesellenbrief',
    field: 'Anlagenmechaniker SHK',
    institution: 'Handwerkskammer für München und Oberbayern',
  },
  FR: { degree: 'CAP', field: 'Monteur en installations thermiques', institution: 'AFPA Lyon' },
  ES: { degree: 'Técnico Superior', field: 'Energías Renovables', institution: 'CIPFP Valencia' },
  NL: { degree: 'MBO 4', field: 'Installatietechniek', institution: 'ROC Midden Nederland' },
  PL: { degree: 'Technik', field: 'Urządzeń i systemów energetyki odnawialnej', institution: 'ZSE Wrocław' },
};

/** Degrees by department: [degree, field]. */
export const DEGREES: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  exe: [
    ['MBA', 'Business Administration'],
    ['BSc', 'Economics'],
  ],
  eng: [
    ['BSc', 'Computer Science'],
    ['MSc', 'Computer Science'],
    ['MEng', 'Software Engineering'],
    ['MSc', 'Electrical Engineering'],
    ['BEng', 'Mechatronics'],
  ],
  prd: [
    ['BA', 'Interaction Design'],
    ['MSc', 'Human-Computer Interaction'],
    ['BSc', 'Business and Management'],
  ],
  dat: [
    ['MSc', 'Data Science'],
    ['BSc', 'Mathematics'],
    ['MSc', 'Statistics'],
    ['PhD', 'Physics'],
  ],
  sal: [
    ['BA', 'Business Administration'],
    ['BSc', 'Economics'],
    ['BA', 'International Business'],
  ],
  mkt: [
    ['BA', 'Marketing'],
    ['BA', 'Communication Studies'],
    ['MSc', 'Digital Marketing'],
  ],
  sup: [
    ['BA', 'Modern Languages'],
    ['BA', 'Business Studies'],
    ['BA', 'Tourism Management'],
  ],
  fin: [
    ['BSc', 'Accounting and Finance'],
    ['MSc', 'Finance'],
    ['BSc', 'Economics'],
  ],
  ppl: [
    ['BA', 'Psychology'],
    ['MSc', 'Human Resource Management'],
  ],
  ta: [
    ['BA', 'Psychology'],
    ['MSc', 'Human Resource Management'],
    ['BA', 'Sociology'],
  ],
  leg: [
    ['LLB', 'Law'],
    ['LLM', 'Data Protection and Technology Law'],
  ],
};

export const EMPLOYERS: readonly string[] = [
  'Northgate Utilities',
  'Brightwatt',
  'Kessler Haustechnik',
  'Vireo Software',
  'Atlas Home Services',
  'Solenne Énergie',
  'Ibersol Instalaciones',
  'Groenwarmte',
  'Meridian Bank',
  'Cobalt Analytics',
  'Parcelry',
  'Fernhill Retail',
  'Quadrant Telecom',
  'Helix Insurance',
  'Stadtwerke Nordhafen',
  'Tallis & Reed',
];

export const SCREENING_REJECTIONS: readonly string[] = [
  'Not enough experience for the level',
  'Skills do not match the role',
  'Salary expectations above the band',
  'No right to work in the country',
];

export const INTERVIEW_REJECTIONS: readonly string[] = [
  'Technical interview below the bar',
  'Another candidate was a closer fit',
  'Candidate withdrew',
  'Salary expectations above the band',
];

export interface LeavePattern {
  weight: number;
  /** Working days, inclusive range. */
  days: readonly [number, number];
  /** Days between submission and the first day: negative for sick leave reported on the day. */
  notice: readonly [number, number];
  half_day_share: number;
  /** Share of applications the approver rejects. */
  rejected: number;
  reasons: readonly string[];
}

export const LEAVE_PATTERNS: Readonly<Record<LeaveType, LeavePattern>> = {
  'Annual Leave': {
    weight: 55,
    days: [2, 10],
    notice: [7, 45],
    half_day_share: 0.1,
    rejected: 0.1,
    reasons: [
      'Summer holiday',
      'Family visit',
      'Christmas break',
      'Long weekend away',
      'Half-term with the kids',
      'Wedding',
    ],
  },
  'Sick Leave': {
    weight: 20,
    days: [1, 3],
    notice: [0, 0],
    half_day_share: 0.1,
    rejected: 0,
    reasons: ['Flu', 'Migraine', 'Dental surgery', 'Back pain', 'Stomach bug'],
  },
  'Casual Leave': {
    weight: 11,
    days: [1, 1],
    notice: [2, 10],
    half_day_share: 0.35,
    rejected: 0.08,
    reasons: [
      'Moving house',
      'Parent-teacher meeting',
      'Boiler service visit',
      'Medical appointment',
      'Car MOT',
    ],
  },
  'Compensatory Off': {
    weight: 7,
    days: [1, 2],
    notice: [3, 14],
    half_day_share: 0,
    rejected: 0.05,
    reasons: ['Weekend installation cover', 'Worked the trade fair weekend', 'Winter on-call weekend'],
  },
  'Leave Without Pay': {
    weight: 4,
    days: [3, 8],
    notice: [14, 40],
    half_day_share: 0,
    rejected: 0.25,
    reasons: ['Extended travel', 'Personal matters', 'Supporting a family member'],
  },
  'Parental Leave': {
    weight: 3,
    days: [10, 30],
    notice: [30, 60],
    half_day_share: 0,
    rejected: 0,
    reasons: ['Paternity leave', 'Parental leave', 'Adoption leave'],
  },
};
