/**
 * Static demo content of the contract module: two workspaces with their members, the counterparties
 * they contract with, and the contract types with their terms and typical obligations.
 */
import type { MemberRole } from '../events/clm';

export interface WorkspaceSeed {
  id: string;
  name: string;
  legal_name: string;
  country: string;
  currency: string;
  /** Prefix of contract references: `ACME-MSA-2026-014`. */
  prefix: string;
  members: readonly { id: string; name: string; job_title: string; role: MemberRole }[];
  domain: string;
}

export const WORKSPACES: readonly WorkspaceSeed[] = [
  {
    id: 'ws-acme',
    name: 'Acme Manufacturing',
    legal_name: 'Acme Manufacturing GmbH',
    country: 'DE',
    currency: 'EUR',
    prefix: 'ACME',
    domain: 'acme-manufacturing.example',
    members: [
      { id: 'm-acme-owner', name: 'Julia Hartmann', job_title: 'General Counsel', role: 'owner' },
      { id: 'm-acme-legal', name: 'Tobias Keller', job_title: 'Senior Legal Counsel', role: 'editor' },
      { id: 'm-acme-procurement', name: 'Miriam Vogt', job_title: 'Head of Procurement', role: 'viewer' },
      { id: 'm-acme-viewer', name: 'Lena Fischer', job_title: 'Finance Controller', role: 'viewer' },
    ],
  },
  {
    id: 'ws-globex',
    name: 'Globex Logistics',
    legal_name: 'Globex Logistics B.V.',
    country: 'NL',
    currency: 'EUR',
    prefix: 'GLX',
    domain: 'globex-logistics.example',
    members: [
      { id: 'm-globex-owner', name: 'Pieter de Vries', job_title: 'Legal Director', role: 'owner' },
      { id: 'm-globex-legal', name: 'Sanne Bakker', job_title: 'Contract Manager', role: 'editor' },
      { id: 'm-globex-viewer', name: 'Daan Visser', job_title: 'Financial Analyst', role: 'viewer' },
    ],
  },
];

/** A member promoted after the workspace was set up (role changes are events too). */
export const PROMOTIONS = [
  { member: 'm-acme-procurement', to: 'editor' as const, on: '2025-03-03T09:00:00Z' },
];

export interface CounterpartySeed {
  legal_name: string;
  trading_name: string | null;
  country: string;
  street: string;
  postal_code: string;
  city: string;
  industry: string;
  domain: string;
  /** Name, job role, signs contracts. */
  contacts: readonly [string, string, boolean][];
}

export const COUNTERPARTIES: readonly CounterpartySeed[] = [
  {
    legal_name: 'Nordwind Cloud Services GmbH',
    trading_name: 'Nordwind Cloud',
    country: 'DE',
    street: 'Speicherstraße 12',
    postal_code: '20457',
    city: 'Hamburg',
    industry: 'Cloud hosting',
    domain: 'nordwind-cloud.example',
    contacts: [
      ['Henrik Brandt', 'Managing Director', true],
      ['Sophie Lange', 'Account Manager', false],
    ],
  },
  {
    legal_name: 'Bergmann Stahlhandel AG',
    trading_name: null,
    country: 'DE',
    street: 'Industriestraße 44',
    postal_code: '44147',
    city: 'Dortmund',
    industry: 'Steel distribution',
    domain: 'bergmann-stahl.example',
    contacts: [
      ['Klaus Bergmann', 'CEO', true],
      ['Anja Roth', 'Sales Director', true],
      ['Felix Wagner', 'Key Account Manager', false],
    ],
  },
  {
    legal_name: 'Lumière Emballages SAS',
    trading_name: 'Lumière Packaging',
    country: 'FR',
    street: '18 rue de la République',
    postal_code: '69002',
    city: 'Lyon',
    industry: 'Packaging',
    domain: 'lumiere-emballages.example',
    contacts: [
      ['Camille Moreau', 'Directrice générale', true],
      ['Julien Petit', 'Responsable commercial', false],
    ],
  },
  {
    legal_name: 'Harbour Analytics Ltd',
    trading_name: null,
    country: 'GB',
    street: '3 Canal Street',
    postal_code: 'M1 3HE',
    city: 'Manchester',
    industry: 'Data analytics',
    domain: 'harbour-analytics.example',
    contacts: [
      ['Oliver Grant', 'Director', true],
      ['Emily Shaw', 'Engagement Lead', false],
    ],
  },
  {
    legal_name: 'Celtic Software Solutions Limited',
    trading_name: 'CeltSoft',
    country: 'IE',
    street: '27 Fitzwilliam Square',
    postal_code: 'D02 T292',
    city: 'Dublin',
    industry: 'Enterprise software',
    domain: 'celtsoft.example',
    contacts: [
      ['Aoife Byrne', 'Chief Commercial Officer', true],
      ['Conor Walsh', 'Licensing Manager', false],
    ],
  },
  {
    legal_name: 'Transportes Ibéricos del Norte S.L.',
    trading_name: 'TIN Logística',
    country: 'ES',
    street: 'Calle de Alcalá 210',
    postal_code: '28028',
    city: 'Madrid',
    industry: 'Road freight',
    domain: 'tin-logistica.example',
    contacts: [
      ['Lucía Fernández', 'Directora de operaciones', true],
      ['Javier Ruiz', 'Gestor de cuentas', false],
    ],
  },
  {
    legal_name: 'Officine Meccaniche Ferraro S.p.A.',
    trading_name: 'Ferraro',
    country: 'IT',
    street: 'Via Torino 88',
    postal_code: '20123',
    city: 'Milano',
    industry: 'Precision machining',
    domain: 'ferraro-meccanica.example',
    contacts: [
      ['Giulia Ferraro', 'Amministratrice delegata', true],
      ['Marco Colombo', 'Responsabile vendite', false],
    ],
  },
  {
    legal_name: 'Skärgård Energi AB',
    trading_name: null,
    country: 'SE',
    street: 'Sveavägen 52',
    postal_code: '111 34',
    city: 'Stockholm',
    industry: 'Renewable energy',
    domain: 'skargard-energi.example',
    contacts: [
      ['Erik Lindqvist', 'VD', true],
      ['Maja Holm', 'Kundansvarig', false],
    ],
  },
  {
    legal_name: 'Wisła Components Sp. z o.o.',
    trading_name: 'Wisła Components',
    country: 'PL',
    street: 'ul. Marszałkowska 140',
    postal_code: '00-061',
    city: 'Warszawa',
    industry: 'Electronic components',
    domain: 'wisla-components.example',
    contacts: [
      ['Katarzyna Nowak', 'Prezes zarządu', true],
      ['Piotr Zieliński', 'Kierownik sprzedaży', false],
    ],
  },
  {
    legal_name: 'Alpen Facility Management GmbH',
    trading_name: 'Alpen FM',
    country: 'AT',
    street: 'Mariahilfer Straße 101',
    postal_code: '1060',
    city: 'Wien',
    industry: 'Facility management',
    domain: 'alpen-fm.example',
    contacts: [
      ['Stefan Huber', 'Geschäftsführer', true],
      ['Eva Gruber', 'Objektleiterin', false],
    ],
  },
  {
    legal_name: 'Delta Port Warehousing NV',
    trading_name: null,
    country: 'BE',
    street: 'Noorderlaan 133',
    postal_code: '2030',
    city: 'Antwerpen',
    industry: 'Warehousing',
    domain: 'deltaport-wh.example',
    contacts: [
      ['Jan Peeters', 'CEO', true],
      ['Lotte Janssens', 'Commercial Manager', false],
    ],
  },
  {
    legal_name: 'Fjord Security ApS',
    trading_name: 'Fjord Security',
    country: 'DK',
    street: 'Vesterbrogade 74',
    postal_code: '1620',
    city: 'København',
    industry: 'Cyber security',
    domain: 'fjord-security.example',
    contacts: [
      ['Mads Kristensen', 'Direktør', true],
      ['Ida Sørensen', 'Security Consultant', false],
    ],
  },
  {
    legal_name: 'Van Dijk Installatietechniek B.V.',
    trading_name: 'Van Dijk Techniek',
    country: 'NL',
    street: 'Stationsplein 45',
    postal_code: '3013 AK',
    city: 'Rotterdam',
    industry: 'Building services',
    domain: 'vandijk-techniek.example',
    contacts: [
      ['Bram van Dijk', 'Directeur', true],
      ['Eva Smit', 'Projectleider', false],
    ],
  },
  {
    legal_name: 'Polder Payroll Services B.V.',
    trading_name: null,
    country: 'NL',
    street: 'Herengracht 320',
    postal_code: '1016 CE',
    city: 'Amsterdam',
    industry: 'Payroll outsourcing',
    domain: 'polder-payroll.example',
    contacts: [
      ['Marieke Jansen', 'Managing Director', true],
      ['Thijs de Boer', 'Client Success Manager', false],
    ],
  },
  {
    legal_name: 'Quantum Ledger Inc.',
    trading_name: 'QuantumLedger',
    country: 'US',
    street: '500 Boylston Street',
    postal_code: '02116',
    city: 'Boston',
    industry: 'Finance software',
    domain: 'quantumledger.example',
    contacts: [
      ['Rachel Kim', 'VP Sales EMEA', true],
      ['David Miller', 'Legal Counsel', false],
    ],
  },
  {
    legal_name: 'Helvetia Präzisionswerkzeuge AG',
    trading_name: null,
    country: 'CH',
    street: 'Bahnhofstrasse 21',
    postal_code: '8001',
    city: 'Zürich',
    industry: 'Tooling',
    domain: 'helvetia-praezision.example',
    contacts: [
      ['Urs Meier', 'CEO', true],
      ['Claudia Keller', 'Verkaufsleiterin', false],
    ],
  },
  {
    legal_name: 'Rhein-Main Kurierdienst GmbH',
    trading_name: 'RMK Express',
    country: 'DE',
    street: 'Hanauer Landstraße 300',
    postal_code: '60314',
    city: 'Frankfurt am Main',
    industry: 'Courier services',
    domain: 'rmk-express.example',
    contacts: [
      ['Sabine Koch', 'Geschäftsführerin', true],
      ['Mehmet Yilmaz', 'Disposition', false],
    ],
  },
  {
    legal_name: 'Atelier Numérique SARL',
    trading_name: null,
    country: 'FR',
    street: '42 boulevard Haussmann',
    postal_code: '75009',
    city: 'Paris',
    industry: 'Digital agency',
    domain: 'atelier-numerique.example',
    contacts: [
      ['Léa Dubois', 'Gérante', true],
      ['Hugo Lambert', 'Chef de projet', false],
    ],
  },
  {
    legal_name: 'Thames Workplace Ltd',
    trading_name: 'Thames Workplace',
    country: 'GB',
    street: '88 Wood Street',
    postal_code: 'EC2V 7RS',
    city: 'London',
    industry: 'Office leasing',
    domain: 'thames-workplace.example',
    contacts: [
      ['Charlotte Hughes', 'Leasing Director', true],
      ['James Patel', 'Property Manager', false],
    ],
  },
  {
    legal_name: 'Kraków Data Center S.A.',
    trading_name: 'KDC',
    country: 'PL',
    street: 'ul. Wielicka 72',
    postal_code: '30-552',
    city: 'Kraków',
    industry: 'Colocation',
    domain: 'kdc-datacenter.example',
    contacts: [
      ['Tomasz Wiśniewski', 'Dyrektor handlowy', true],
      ['Agnieszka Wójcik', 'Opiekun klienta', false],
    ],
  },
];

export const COUNTERPARTIES_PER_WORKSPACE = 14;

export interface ContractTypeSeed {
  type:
    | 'Master Services Agreement'
    | 'Statement of Work'
    | 'Non-Disclosure Agreement'
    | 'Data Processing Agreement'
    | 'Software Licence'
    | 'Supply Agreement'
    | 'Distribution Agreement'
    | 'Consulting Agreement'
    | 'Lease';
  code: string;
  weight: number;
  /** Term lengths in months to pick from; empty: no fixed end. */
  terms: readonly number[];
  value: [number, number] | null;
  autoRenewal: number;
  notice: readonly number[];
  /** Obligations: every `months` from the start, or `notice`: the renewal notice deadline. */
  obligations: readonly { title: string; every: number | 'notice' }[];
  clauses: readonly string[];
}

export const CONTRACT_TYPES_SEED: readonly ContractTypeSeed[] = [
  {
    type: 'Master Services Agreement',
    code: 'MSA',
    weight: 14,
    terms: [24, 36],
    value: [250_000, 2_400_000],
    autoRenewal: 0.7,
    notice: [90, 180],
    obligations: [
      { title: 'Quarterly service review', every: 3 },
      { title: 'Deliver SOC 2 Type II report', every: 12 },
      { title: 'Renewal notice deadline', every: 'notice' },
    ],
    clauses: [
      'Services and service levels',
      'Fees, invoicing and payment (60 days)',
      'Liability cap: 12 months of fees',
      'Data protection (see DPA)',
      'Term, renewal and termination',
    ],
  },
  {
    type: 'Statement of Work',
    code: 'SOW',
    weight: 14,
    terms: [3, 6, 9, 12],
    value: [40_000, 600_000],
    autoRenewal: 0,
    notice: [30],
    obligations: [
      { title: 'Milestone acceptance', every: 2 },
      { title: 'Final deliverable acceptance', every: 'notice' },
    ],
    clauses: [
      'Scope and deliverables',
      'Milestones and acceptance',
      'Fixed fee and payment schedule',
      'Change control',
    ],
  },
  {
    type: 'Non-Disclosure Agreement',
    code: 'NDA',
    weight: 12,
    terms: [24, 36],
    value: null,
    autoRenewal: 0,
    notice: [30],
    obligations: [{ title: 'Return or destroy confidential information', every: 'notice' }],
    clauses: [
      'Definition of confidential information',
      'Permitted use and disclosure',
      'Term of confidentiality (5 years after disclosure)',
      'Return and destruction',
    ],
  },
  {
    type: 'Data Processing Agreement',
    code: 'DPA',
    weight: 8,
    terms: [],
    value: null,
    autoRenewal: 0,
    notice: [30],
    obligations: [
      { title: 'Annual sub-processor list review', every: 12 },
      { title: 'Security audit report delivery', every: 12 },
    ],
    clauses: [
      'Subject matter and duration of processing',
      'Technical and organisational measures',
      'Sub-processors',
      'Data subject requests and breach notification (48 hours)',
    ],
  },
  {
    type: 'Software Licence',
    code: 'LIC',
    weight: 10,
    terms: [12, 24, 36],
    value: [20_000, 450_000],
    autoRenewal: 0.8,
    notice: [60, 90],
    obligations: [
      { title: 'Licence true-up report', every: 12 },
      { title: 'Renewal notice deadline', every: 'notice' },
    ],
    clauses: [
      'Grant of licence (named users)',
      'Support and maintenance',
      'Audit rights',
      'Fees and annual indexation',
    ],
  },
  {
    type: 'Supply Agreement',
    code: 'SUP',
    weight: 12,
    terms: [12, 24, 36],
    value: [500_000, 5_000_000],
    autoRenewal: 0.5,
    notice: [90, 180],
    obligations: [
      { title: 'Quarterly volume forecast', every: 3 },
      { title: 'Annual quality audit', every: 12 },
      { title: 'Price indexation review', every: 12 },
    ],
    clauses: [
      'Products and specifications',
      'Forecasts and purchase orders',
      'Delivery (DAP Incoterms 2020)',
      'Quality, warranty and recalls',
      'Price adjustment',
    ],
  },
  {
    type: 'Distribution Agreement',
    code: 'DST',
    weight: 5,
    terms: [36],
    value: [1_000_000, 8_000_000],
    autoRenewal: 0.6,
    notice: [180],
    obligations: [
      { title: 'Annual sales report', every: 12 },
      { title: 'Minimum purchase volume review', every: 6 },
    ],
    clauses: [
      'Appointment and territory',
      'Minimum purchase commitments',
      'Marketing obligations',
      'Trademarks',
    ],
  },
  {
    type: 'Consulting Agreement',
    code: 'CON',
    weight: 8,
    terms: [6, 12],
    value: [30_000, 300_000],
    autoRenewal: 0,
    notice: [30],
    obligations: [
      { title: 'Monthly timesheet approval', every: 1 },
      { title: 'Final report delivery', every: 'notice' },
    ],
    clauses: [
      'Services and consultants',
      'Day rates and expenses',
      'Intellectual property',
      'Non-solicitation',
    ],
  },
  {
    type: 'Lease',
    code: 'LSE',
    weight: 4,
    terms: [60],
    value: [300_000, 3_000_000],
    autoRenewal: 0,
    notice: [180],
    obligations: [
      { title: 'Rent indexation notice', every: 12 },
      { title: 'Annual service charge reconciliation', every: 12 },
      { title: 'Break option notice deadline', every: 'notice' },
    ],
    clauses: [
      'Premises and permitted use',
      'Rent, indexation and service charges',
      'Repairs and maintenance',
      'Break option',
    ],
  },
];

export const VERSION_NOTES = [
  'Counterparty redlines on the liability cap',
  'Agreed payment terms and invoicing',
  'Updated data protection schedule',
  'Clarified termination for convenience',
  'Final clean version for signature',
] as const;

export const GOVERNING_LAW: Record<string, string> = {
  DE: 'Germany',
  NL: 'the Netherlands',
};
