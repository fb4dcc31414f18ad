/**
 * Static demo content of the corporate website: its sections per locale, the forms it runs, the
 * subjects of its articles, images and documents.
 */
import type { FormField } from '../events/cms';

export type Locale = 'en' | 'de' | 'fr' | 'nl';

/** Section titles per locale: [en, de, fr, nl]. */
export const SECTIONS = {
  home: ['Home', 'Startseite', 'Accueil', 'Home'],
  products: ['Products', 'Produkte', 'Produits', 'Producten'],
  solutions: ['Solutions', 'Lösungen', 'Solutions', 'Oplossingen'],
  customers: ['Customer stories', 'Kundenstimmen', 'Témoignages clients', 'Klantverhalen'],
  blog: ['Blog', 'Blog', 'Blog', 'Blog'],
  events: ['Events', 'Veranstaltungen', 'Événements', 'Evenementen'],
  resources: ['Resources', 'Ressourcen', 'Ressources', 'Bronnen'],
  about: ['About us', 'Über uns', 'À propos', 'Over ons'],
  careers: ['Careers', 'Karriere', 'Carrières', 'Werken bij'],
  contact: ['Contact us', 'Kontakt', 'Contact', 'Contact'],
  demo: ['Request a demo', 'Demo anfragen', 'Demander une démo', 'Demo aanvragen'],
  newsletter: ['Newsletter', 'Newsletter', 'Newsletter', 'Nieuwsbrief'],
} as const satisfies Record<string, readonly [string, string, string, string]>;

export const LOCALE_INDEX: Record<Locale, number> = { en: 0, de: 1, fr: 2, nl: 3 };

export const PRODUCT_PAGES = [
  'Service Desk',
  'HR Suite',
  'Analytics Platform',
  'Portfolio Management',
  'Learning Platform',
  'Contract Management',
  'Mailbox & Calendar',
];

export const SOLUTION_PAGES = [
  'Manufacturing',
  'Retail',
  'Financial Services',
  'Healthcare',
  'Logistics',
  'Energy & Utilities',
  'Public Sector',
  'Professional Services',
  'Education',
  'Hospitality',
];

export const CUSTOMER_STORIES = [
  'How Nordlicht Logistics cut ticket resolution time by 41%',
  'Castellana Hotels onboards 900 seasonal staff in two weeks',
  'Rheinfeld Maschinenbau replaces seven tools with one suite',
  'Polaris Freight gains real-time visibility of every project',
  'Umbria Health moves compliance training online',
  'Deltaport Energy automates contract renewals',
  'Harbour Insurance answers customers 3x faster',
  'Meridian Retail runs 120 stores from one service catalogue',
  'Baltic Telecom halves its month-end reporting effort',
  'Summit Academy personalises learning for 12,000 students',
];

export const BLOG_TOPICS = [
  'service management',
  'employee onboarding',
  'project portfolios',
  'data governance',
  'hybrid work',
  'customer support',
  'contract renewals',
  'compliance training',
  'IT asset management',
  'knowledge bases',
  'sales pipelines',
  'change management',
];

export const BLOG_PATTERNS = [
  '7 ways to improve your {topic}',
  'What we learned from rebuilding our {topic}',
  'The 2026 guide to {topic}',
  '{Topic}: mistakes we see every week',
  'How to measure {topic} that actually matters',
  'A checklist for {topic} in regulated industries',
  'Automating {topic} without losing the human touch',
  'Why {topic} fails, and how to fix it',
];

export const EVENTS = [
  'Northwind Summit Berlin 2026',
  'Service Excellence Day Amsterdam',
  'Webinar: AI in the service desk',
  'HR Tech Breakfast Paris',
  'Webinar: Portfolio planning for 2027',
  'Customer Advisory Board Q3',
  'Partner Kick-off Vienna',
  'Webinar: GDPR and employee data',
  'Data Leaders Roundtable Munich',
  'Northwind User Group Brussels',
  'Webinar: Contract risk in 10 minutes',
  'Year-End Product Update Live',
];

export const WHITEPAPERS = [
  'The State of Enterprise Service Management 2026',
  'Building a Business Case for HR Automation',
  'Portfolio Management Maturity Model',
  'A Practical Guide to NIS2 for IT Teams',
  'Reducing Contract Leakage',
  'Learning Culture Benchmark Report',
  'The Total Cost of Tool Sprawl',
  'Customer Service Metrics That Matter',
];

export const ABOUT_PAGES = ['Leadership team', 'Our history', 'Sustainability', 'Press'];
export const OFFICES = ['Berlin', 'Amsterdam', 'Paris', 'Vienna', 'Warsaw'];

export const EDITORS = [
  'Laura Kaiser',
  'Tom Verhoeven',
  'Chloé Martin',
  'Nina Weiss',
  'Sam Okafor',
  'Julia Brandt',
];

export const PARAGRAPHS = [
  'Teams across Europe rely on one suite to run their daily work, from the first request to the final report.',
  'Every change is recorded, every decision can be traced, and every team sees the same numbers.',
  'Start small with one team and grow at your own pace: the platform scales with you.',
  'Our specialists help you migrate your data and train your people in weeks, not months.',
  'Built and hosted in the EU, with the certifications your auditors ask for.',
  'Connect the tools you already use through open APIs and ready-made integrations.',
  'Dashboards show what needs attention today, so managers can act before problems grow.',
  'Customers report faster answers, fewer manual steps and happier employees within the first quarter.',
];

const consent = (label: string): FormField => ({
  name: 'consent',
  label,
  field_type: 'checkbox',
  required: true,
  choices: [],
  help_text: 'We process your data as described in our privacy policy.',
});

const field = (
  name: string,
  label: string,
  field_type: FormField['field_type'],
  required = false,
  choices: string[] = [],
): FormField => ({ name, label, field_type, required, choices, help_text: '' });

export type FormKind = 'contact' | 'demo' | 'newsletter' | 'event' | 'whitepaper';

export const FORMS: Record<FormKind, readonly FormField[]> = {
  contact: [
    field('name', 'Your name', 'singleline', true),
    field('email', 'Email', 'email', true),
    field('company', 'Company', 'singleline'),
    field('topic', 'Topic', 'dropdown', true, ['Sales', 'Support', 'Partnerships', 'Press', 'Other']),
    field('message', 'Message', 'multiline', true),
    consent('I agree to be contacted about my request'),
  ],
  demo: [
    field('first_name', 'First name', 'singleline', true),
    field('last_name', 'Last name', 'singleline', true),
    field('email', 'Work email', 'email', true),
    field('company', 'Company', 'singleline', true),
    field('employees', 'Company size', 'dropdown', true, ['1-50', '51-200', '201-1000', '1000+']),
    field('products', 'Interested in', 'checkboxes', false, PRODUCT_PAGES),
    field('phone', 'Phone', 'singleline'),
    field('preferred_date', 'Preferred date', 'date'),
    consent('I agree to be contacted to arrange the demo'),
  ],
  newsletter: [
    field('email', 'Email', 'email', true),
    field('language', 'Language', 'radio', true, ['English', 'Deutsch', 'Français', 'Nederlands']),
    field('topics', 'Topics', 'checkboxes', false, ['Product news', 'Events', 'Customer stories']),
  ],
  event: [
    field('first_name', 'First name', 'singleline', true),
    field('last_name', 'Last name', 'singleline', true),
    field('email', 'Email', 'email', true),
    field('company', 'Company', 'singleline', true),
    field('attendance', 'I will attend', 'radio', true, ['In person', 'Online']),
    field('dietary', 'Dietary requirements', 'dropdown', false, [
      'None',
      'Vegetarian',
      'Vegan',
      'Gluten-free',
    ]),
    consent('I agree to receive the event information'),
  ],
  whitepaper: [
    field('email', 'Work email', 'email', true),
    field('company', 'Company', 'singleline', true),
    field('job_title', 'Job title', 'singleline'),
    field('country', 'Country', 'dropdown', true, [
      'Germany',
      'France',
      'Netherlands',
      'Belgium',
      'Austria',
      'Other',
    ]),
    consent('Send me the download link and related content'),
  ],
};

export const IMAGE_SUBJECTS: readonly { title: string; collection: string; tags: readonly string[] }[] = [
  { title: 'Team meeting in the Berlin office', collection: 'People', tags: ['office', 'team'] },
  { title: 'Service desk agent on a call', collection: 'People', tags: ['support', 'headset'] },
  { title: 'Warehouse aisles at dawn', collection: 'Solutions', tags: ['logistics', 'warehouse'] },
  { title: 'Hospital corridor', collection: 'Solutions', tags: ['healthcare'] },
  { title: 'Wind turbines on the North Sea', collection: 'Solutions', tags: ['energy'] },
  { title: 'Retail store checkout', collection: 'Solutions', tags: ['retail'] },
  { title: 'Dashboard on a laptop', collection: 'Products', tags: ['product', 'screenshot'] },
  { title: 'Mobile app in hand', collection: 'Products', tags: ['product', 'mobile'] },
  { title: 'Analytics charts on a wall screen', collection: 'Products', tags: ['analytics'] },
  { title: 'Conference stage with speaker', collection: 'Events', tags: ['event', 'stage'] },
  { title: 'Workshop with sticky notes', collection: 'Events', tags: ['workshop'] },
  { title: 'Coffee break networking', collection: 'Events', tags: ['event', 'networking'] },
  { title: 'Northwind logo on glass', collection: 'Brand', tags: ['logo', 'brand'] },
  { title: 'Abstract blue gradient', collection: 'Brand', tags: ['background'] },
  { title: 'Amsterdam canal at sunset', collection: 'Blog', tags: ['city', 'amsterdam'] },
  { title: 'Paris rooftops', collection: 'Blog', tags: ['city', 'paris'] },
  { title: 'Hands typing on a keyboard', collection: 'Blog', tags: ['work', 'keyboard'] },
  { title: 'Whiteboard planning session', collection: 'Blog', tags: ['planning'] },
  { title: 'Remote worker at the kitchen table', collection: 'Blog', tags: ['hybrid work'] },
  { title: 'Server room lights', collection: 'Blog', tags: ['it', 'datacenter'] },
];

export const IMAGE_VARIANTS = [
  '',
  'wide',
  'portrait',
  'detail',
  'close-up',
  'black and white',
  'aerial',
  'night',
  'summer',
  'winter',
  'crop',
  'alternate',
  'hero',
  'square',
  'banner',
];

export const DOCUMENT_KINDS: readonly {
  title: string;
  collection: string;
  tags: readonly string[];
  per: readonly string[];
}[] = [
  { title: '{item} datasheet', collection: 'Products', tags: ['datasheet'], per: PRODUCT_PAGES },
  { title: '{item}', collection: 'Whitepapers', tags: ['whitepaper'], per: WHITEPAPERS },
  {
    title: 'Case study: {item}',
    collection: 'Customer stories',
    tags: ['case study'],
    per: CUSTOMER_STORIES,
  },
  { title: 'Agenda: {item}', collection: 'Events', tags: ['agenda'], per: EVENTS },
  {
    title: 'Annual report {item}',
    collection: 'Investor relations',
    tags: ['annual report'],
    per: ['2022', '2023', '2024', '2025'],
  },
  {
    title: 'Price list {item}',
    collection: 'Sales',
    tags: ['pricing'],
    per: ['Q1 2026', 'Q2 2026', 'Q3 2026', 'Q4 2026'],
  },
  {
    title: 'Terms and conditions {item}',
    collection: 'Legal',
    tags: ['legal'],
    per: ['v3.0', 'v3.1', 'v4.0'],
  },
  {
    title: 'Privacy policy {item}',
    collection: 'Legal',
    tags: ['legal', 'privacy'],
    per: ['2024', '2025', '2026'],
  },
  { title: 'Press release: {item}', collection: 'Press', tags: ['press'], per: CUSTOMER_STORIES },
];

export const DOCUMENT_LANGUAGES = ['EN', 'DE', 'FR', 'NL'] as const;

/** The title of a section in a locale. */
export function sectionTitle(name: keyof typeof SECTIONS, locale: Locale): string {
  return SECTIONS[name][LOCALE_INDEX[locale]] as string;
}
