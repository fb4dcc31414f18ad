import { z } from 'zod';
import { defineEvent } from '../catalog';
import { id, statusChange } from './fields';

export const ORGANIZATION_STATUSES = ['Active', 'Inactive'] as const;
export const BRAND_STATUSES = ['Active', 'Inactive'] as const;
export const CAREER_SITE_STATUSES = ['Draft', 'Published', 'Unpublished'] as const;
export const DEPARTMENT_STATUSES = ['Active', 'Disabled'] as const;
export const TEAM_STATUSES = ['Active', 'Inactive'] as const;

/** Organisations, their brands and career sites, departments and teams. */
export const organisationEvents = [
  defineEvent(
    'OrganizationAdded',
    z.object({
      id,
      name: z.string(),
      legal_name: z.string(),
      country: z.string().length(2),
      industry: z.string(),
      website: z.string(),
      headquarters_city: z.string(),
      default_language: z.string(),
      default_currency: z.string().length(3),
      timezone: z.string(),
      date_format: z.string(),
    }),
  ),
  defineEvent('OrganizationStatusChanged', statusChange(ORGANIZATION_STATUSES)),
  defineEvent(
    'BrandAdded',
    z.object({
      id,
      organization_id: id,
      name: z.string(),
      domain: z.string(),
      primary_color: z.string(),
      secondary_color: z.string(),
      logo_url: z.string(),
      tagline: z.string().nullable(),
    }),
  ),
  defineEvent('BrandStatusChanged', statusChange(BRAND_STATUSES)),
  defineEvent(
    'CareerSiteAdded',
    z.object({
      id,
      organization_id: id,
      brand_id: id,
      name: z.string(),
      url: z.string(),
      default_locale: z.string(),
      locales: z.array(z.string()).min(1),
    }),
  ),
  defineEvent('CareerSiteStatusChanged', statusChange(CAREER_SITE_STATUSES)),
  defineEvent(
    'DepartmentAdded',
    z.object({
      id,
      name: z.string(),
      code: z.string(),
      parent_department_id: id.nullable(),
      cost_center: z.string(),
    }),
  ),
  defineEvent('DepartmentStatusChanged', statusChange(DEPARTMENT_STATUSES)),
  defineEvent(
    'OrganizationTeamAdded',
    z.object({
      id,
      organization_id: id,
      department_id: id,
      country: z.string().length(2),
      name: z.string(),
      lead_employee_id: id,
      member_ids: z.array(id),
    }),
  ),
  defineEvent('OrganizationTeamStatusChanged', statusChange(TEAM_STATUSES)),
] as const;
