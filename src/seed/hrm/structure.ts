import {
  addBrand,
  addCareerSite,
  addDepartment,
  addOrganization,
  changeStatus,
} from '../../commands/hrm/handlers';
import type { SeedContext } from '../context';
import { BRANDS, CAREER_SITES, DEPARTMENTS, ORGANIZATIONS } from '../hrm-data';
import { MINUTE, plus, SEED_START, type Step, type Structure } from './plan';

const id = (ids: Map<string, number>, key: string) => {
  const found = ids.get(key);
  if (found === undefined) throw new Error(`Unknown key ${key} in the HR demo data`);
  return found;
};

/** Organisations, brands, career sites and departments, as the HR system goes live. */
export async function seedStructure(seed: SeedContext): Promise<Structure> {
  const { commands } = seed;
  seed.at(SEED_START);
  const organizations = new Map<string, number>();
  for (const organization of ORGANIZATIONS) {
    const { id: organizationId } = await addOrganization(commands, {
      name: organization.name,
      legal_name: organization.legal_name,
      country: organization.country,
      industry: organization.industry,
      website: organization.website,
      headquarters_city: organization.headquarters_city,
      default_language: organization.default_language,
      default_currency: organization.default_currency,
      timezone: organization.timezone,
      date_format: organization.date_format,
    });
    organizations.set(organization.key, organizationId);
  }
  const brands = new Map<string, number>();
  for (const brand of BRANDS) {
    const { id: brandId } = await addBrand(commands, {
      organization_id: id(organizations, brand.organization),
      name: brand.name,
      domain: brand.domain,
      primary_color: brand.primary_color,
      secondary_color: brand.secondary_color,
      logo_url: `https://cdn.${brand.domain}/brand/logo.svg`,
      tagline: brand.tagline,
    });
    brands.set(brand.key, brandId);
  }
  const sites = new Map<string, { id: number; seed: (typeof CAREER_SITES)[number] }>();
  for (const site of CAREER_SITES) {
    const { id: siteId } = await addCareerSite(commands, {
      organization_id: id(organizations, site.organization),
      brand_id: id(brands, site.brand),
      name: site.name,
      url: site.url,
      default_locale: site.default_locale,
      locales: [...site.locales],
    });
    sites.set(site.key, { id: siteId, seed: site });
  }
  seed.at(plus(SEED_START, 30 * MINUTE));
  for (const { id: siteId, seed: site } of sites.values()) {
    if (site.lifecycle !== 'draft') await changeStatus(commands, 'careerSite', siteId, 'Published');
  }
  const departments = new Map<string, number>();
  for (const department of DEPARTMENTS) {
    const { id: departmentId } = await addDepartment(commands, {
      name: department.name,
      code: department.code,
      parent_department_id: department.parent ? id(departments, department.parent) : null,
      cost_center: `CC-${department.code}`,
    });
    departments.set(department.key, departmentId);
  }
  return { organizations, brands, sites, departments };
}

/** What changes in the structure during the season: a merged department, a retired brand, a dormant entity. */
export function structureChanges(seed: SeedContext, structure: Structure): Step[] {
  const { commands } = seed;
  const steps: Step[] = [];
  for (const department of DEPARTMENTS.filter((candidate) => candidate.disabled)) {
    const departmentId = id(structure.departments, department.key);
    steps.push({
      at: new Date('2026-06-30T16:00:00Z'),
      run: () => changeStatus(commands, 'department', departmentId, 'Disabled'),
    });
  }
  for (const brand of BRANDS.filter((candidate) => candidate.retired)) {
    const retiredAt = new Date('2026-07-31T16:00:00Z');
    for (const site of structure.sites.values()) {
      if (site.seed.brand !== brand.key || site.seed.lifecycle !== 'retired') continue;
      steps.push({ at: retiredAt, run: () => changeStatus(commands, 'careerSite', site.id, 'Unpublished') });
    }
    const brandId = id(structure.brands, brand.key);
    steps.push({
      at: plus(retiredAt, 5 * MINUTE),
      run: () => changeStatus(commands, 'brand', brandId, 'Inactive'),
    });
  }
  for (const organization of ORGANIZATIONS.filter((candidate) => candidate.dormant)) {
    const organizationId = id(structure.organizations, organization.key);
    steps.push({
      at: new Date('2026-09-15T09:00:00Z'),
      run: () => changeStatus(commands, 'organization', organizationId, 'Inactive'),
    });
  }
  return steps;
}

export { id as structureId };
