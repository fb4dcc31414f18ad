import { invalidField } from '../errors';
import { lifecycleDecider } from './lifecycle';

/** Recruitment organisations (legal employers) carry the locale defaults of their country. */
export const organizationDecider = lifecycleDecider({
  entity: 'organization',
  added: 'OrganizationAdded',
  changed: 'OrganizationStatusChanged',
  initial: 'Active',
  transitions: { Active: ['Inactive'], Inactive: ['Active'] },
});

export const brandDecider = lifecycleDecider({
  entity: 'brand',
  added: 'BrandAdded',
  changed: 'BrandStatusChanged',
  initial: 'Active',
  transitions: { Active: ['Inactive'], Inactive: ['Active'] },
});

/** A career site is drafted, published, and may be taken offline and published again. */
export const careerSiteDecider = lifecycleDecider({
  entity: 'career site',
  added: 'CareerSiteAdded',
  changed: 'CareerSiteStatusChanged',
  initial: 'Draft',
  transitions: { Draft: ['Published'], Published: ['Unpublished'], Unpublished: ['Published'] },
  check(site) {
    if (!site.locales.includes(site.default_locale)) {
      throw invalidField('default_locale', `${site.default_locale} is not one of the site's locales`);
    }
  },
});

export const departmentDecider = lifecycleDecider({
  entity: 'department',
  added: 'DepartmentAdded',
  changed: 'DepartmentStatusChanged',
  initial: 'Active',
  transitions: { Active: ['Disabled'], Disabled: ['Active'] },
});

/** A recruiting team, scoped to one country and one department of an organisation. */
export const teamDecider = lifecycleDecider({
  entity: 'team',
  added: 'OrganizationTeamAdded',
  changed: 'OrganizationTeamStatusChanged',
  initial: 'Active',
  transitions: { Active: ['Inactive'], Inactive: ['Active'] },
  check(team) {
    if (new Set(team.member_ids).size !== team.member_ids.length) {
      throw invalidField('member_ids', 'lists an employee twice');
    }
  },
});
