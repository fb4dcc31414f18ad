import { z } from 'zod';
import {
  BRAND_STATUSES,
  CAREER_SITE_STATUSES,
  DEPARTMENT_STATUSES,
  ORGANIZATION_STATUSES,
  TEAM_STATUSES,
} from '../../events/hrm';
import { enumText, intOrNull, lifecycleProjection, textOrNull, timestamp } from './shared';

export const OrganizationRecord = z
  .object({
    id: z.number().int(),
    name: z.string(),
    legal_name: z.string(),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2' }),
    industry: z.string(),
    website: z.string(),
    headquarters_city: z.string(),
    default_language: z.string().meta({ description: 'BCP 47 language tag, e.g. de-DE' }),
    default_currency: z.string().meta({ description: 'ISO 4217' }),
    timezone: z.string().meta({ description: 'IANA time zone' }),
    date_format: z.string().meta({ description: 'e.g. dd.mm.yyyy' }),
    status: enumText(ORGANIZATION_STATUSES),
    created: timestamp,
  })
  .meta({ id: 'Organization' });

export const BrandRecord = z
  .object({
    id: z.number().int(),
    organization_id: z.number().int(),
    name: z.string(),
    domain: z.string(),
    primary_color: z.string().meta({ description: 'Hex colour, #RRGGBB' }),
    secondary_color: z.string(),
    logo_url: z.string(),
    tagline: textOrNull,
    status: enumText(BRAND_STATUSES),
    created: timestamp,
  })
  .meta({ id: 'Brand' });

export const CareerSiteRecord = z
  .object({
    id: z.number().int(),
    organization_id: z.number().int(),
    brand_id: z.number().int(),
    name: z.string(),
    url: z.string(),
    default_locale: z.string(),
    locales: z.array(z.string()).meta({ description: 'Locales the site publishes in' }),
    status: enumText(CAREER_SITE_STATUSES),
    published_on: timestamp.nullable().meta({ description: 'First publication' }),
    created: timestamp,
  })
  .meta({ id: 'CareerSite' });

export const DepartmentRecord = z
  .object({
    id: z.number().int(),
    name: z.string(),
    code: z.string(),
    parent_department_id: intOrNull,
    cost_center: z.string(),
    status: enumText(DEPARTMENT_STATUSES),
    created: timestamp,
  })
  .meta({ id: 'Department' });

export const OrganizationTeamRecord = z
  .object({
    id: z.number().int(),
    organization_id: z.number().int(),
    department_id: z.number().int(),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2' }),
    name: z.string(),
    lead_employee_id: z.number().int(),
    member_ids: z.array(z.number().int()).meta({ description: 'Employee ids of the recruiters' }),
    status: enumText(TEAM_STATUSES),
    created: timestamp,
  })
  .meta({ id: 'OrganizationTeam' });

export type OrganizationRecord = z.infer<typeof OrganizationRecord>;
export type BrandRecord = z.infer<typeof BrandRecord>;
export type CareerSiteRecord = z.infer<typeof CareerSiteRecord>;
export type DepartmentRecord = z.infer<typeof DepartmentRecord>;
export type OrganizationTeamRecord = z.infer<typeof OrganizationTeamRecord>;

export const organizationsProjection = lifecycleProjection<OrganizationRecord, 'OrganizationAdded'>({
  collection: 'hrm.organizations',
  category: 'organization',
  added: 'OrganizationAdded',
  changed: 'OrganizationStatusChanged',
  build: (data, created) => ({ ...data, status: 'Active', created }),
});

export const brandsProjection = lifecycleProjection<BrandRecord, 'BrandAdded'>({
  collection: 'hrm.brands',
  category: 'brand',
  added: 'BrandAdded',
  changed: 'BrandStatusChanged',
  build: (data, created) => ({ ...data, status: 'Active', created }),
});

export const careerSitesProjection = lifecycleProjection<CareerSiteRecord, 'CareerSiteAdded'>({
  collection: 'hrm.career_sites',
  category: 'careerSite',
  added: 'CareerSiteAdded',
  changed: 'CareerSiteStatusChanged',
  build: (data, created) => ({ ...data, status: 'Draft', published_on: null, created }),
  onStatus: (doc, change) =>
    change.status === 'Published' ? { published_on: doc.published_on ?? change.changed_on } : {},
});

export const departmentsProjection = lifecycleProjection<DepartmentRecord, 'DepartmentAdded'>({
  collection: 'hrm.departments',
  category: 'department',
  added: 'DepartmentAdded',
  changed: 'DepartmentStatusChanged',
  build: (data, created) => ({ ...data, status: 'Active', created }),
});

export const teamsProjection = lifecycleProjection<OrganizationTeamRecord, 'OrganizationTeamAdded'>({
  collection: 'hrm.organization_teams',
  category: 'team',
  added: 'OrganizationTeamAdded',
  changed: 'OrganizationTeamStatusChanged',
  build: (data, created) => ({ ...data, status: 'Active', created }),
});
