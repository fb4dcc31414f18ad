/** The organisation the tests' people work for (HR's `addOrganization` payload). */
export const HALCYON_UK = {
  name: 'Halcyon UK',
  legal_name: 'Halcyon Energy UK Ltd',
  country: 'GB',
  website: 'https://www.halcyon.example',
  headquarters_city: 'Manchester',
  default_language: 'en-GB',
  default_currency: 'GBP',
  industry: 'Home energy technology',
  timezone: 'Europe/London',
  date_format: 'dd/mm/yyyy',
};
