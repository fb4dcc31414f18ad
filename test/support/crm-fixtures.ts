import type {
  CompanyInput,
  ContactInput,
  LeadInput,
  OpportunityInput,
} from '../../src/commands/crm/handlers';

/** What the CRM's tests write: a company, its contact, a lead and a deal, each overridable. */
export const company = (overrides: Partial<CompanyInput>): CompanyInput => ({
  name: 'Nordlicht Logistics GmbH',
  domain: 'nordlichtlogistics.example',
  website: 'https://www.nordlichtlogistics.example',
  industry: 'Logistics',
  employees: '201-500',
  annual_revenue: 80_000_000,
  currency: 'EUR',
  country: 'DE',
  city: 'Hamburg',
  phone: '+49 40 123 4567',
  owner: 'Hanna Vogel',
  status: 'Customer',
  ...overrides,
});

export const contact = (overrides: Partial<ContactInput>): ContactInput => ({
  company_id: 1,
  salutation: 'Frau',
  first_name: 'Katrin',
  last_name: 'Becker',
  email: 'katrin.becker@nordlichtlogistics.example',
  phone: null,
  mobile: null,
  job_title: 'CIO',
  department: 'IT',
  is_primary: true,
  ...overrides,
});

export const lead = (overrides: Partial<LeadInput>): LeadInput => ({
  first_name: 'Sanne',
  last_name: 'de Jong',
  email: 'sanne.dejong@polarisfreight.example',
  phone: null,
  organization: 'Polaris Freight B.V.',
  job_title: 'COO',
  website: null,
  industry: 'Logistics',
  employees: '51-200',
  annual_revenue: null,
  source: 'Trade Show',
  owner: 'Mark de Boer',
  ...overrides,
});

export const deal = (overrides: Partial<OpportunityInput>): OpportunityInput => ({
  name: 'Deal',
  company_id: 1,
  contact_id: 1,
  lead_id: null,
  stage: 'Qualification',
  amount: 48_000,
  currency: 'EUR',
  expected_close_date: '2027-01-31',
  owner: 'Hanna Vogel',
  source: 'Referral',
  next_step: 'Send the proposal and pricing',
  ...overrides,
});
