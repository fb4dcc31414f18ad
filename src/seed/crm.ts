import { isoDate } from '../clock';
import {
  addCompany,
  addContact,
  captureLead,
  changeLeadStatus,
  moveOpportunity,
  openOpportunity,
  type StageMove,
} from '../commands/crm/handlers';
import { INDUSTRIES, type DealStage, type LeadStatus, type LostReason } from '../events/crm';
import type { SeedContext } from './context';
import {
  COMPANY_STEMS,
  COUNTRIES,
  DEAL_KINDS,
  DEPARTMENTS,
  INDUSTRY_WORDS,
  LOST_NOTES,
  NEXT_STEPS,
  PER_EUR,
  PRODUCTS,
  SALES_REPS,
  type CountrySeed,
} from './crm-data';
import { slugify, writeInGroups, writeTimeline, type TimelineStep } from './toolkit';

const DAY = 86_400_000;
/** The day the accounts moved into the suite from the previous CRM. */
const IMPORTED = new Date('2026-05-04T08:00:00Z');
const SEED_END = new Date('2026-11-20T17:00:00Z');
const COMPANY_COUNT = 220;
const LEAD_COUNT = 260;
const DIRECT_DEALS = 220;
const LOST_REASON_WEIGHTS: Record<LostReason, number> = {
  Price: 20,
  Competitor: 20,
  'No Budget': 15,
  Timing: 15,
  'No Decision': 15,
  'Product Fit': 9,
  Other: 6,
};

type Random = SeedContext['random'];

interface Company {
  id: number;
  name: string;
  industry: (typeof INDUSTRIES)[number];
  domain: string;
  country: CountrySeed;
  currency: string;
  owner: string;
  contacts: Person[];
}

interface Person {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  job_title: string;
}

const phoneNumber = (random: Random, country: CountrySeed) =>
  `${country.phone} ${random.int(20, 99)} ${random.int(100, 999)} ${random.int(1000, 9999)}`;

const later = (random: Random, from: number, minDays: number, maxDays: number) =>
  from + (minDays + random.float() * (maxDays - minDays)) * DAY;

function companyName(
  random: Random,
  taken: Set<string>,
): { name: string; industry: (typeof INDUSTRIES)[number] } {
  for (;;) {
    const industry = random.pick(INDUSTRIES);
    const name = `${random.pick(COMPANY_STEMS)} ${random.pick(INDUSTRY_WORDS[industry] ?? [])}`;
    if (!taken.has(name)) {
      taken.add(name);
      return { name, industry };
    }
  }
}

/** A new person of that country with a unique email address at `domain`; first names alternate female, male. */
function person(random: Random, country: CountrySeed, domain: string, taken: Set<string>) {
  for (;;) {
    const index = random.int(0, country.firstNames.length - 1);
    const first_name = country.firstNames[index] as string;
    const last_name = random.pick(country.lastNames);
    const email = `${slugify(first_name, '')}.${slugify(last_name, '')}@${domain}`;
    if (taken.has(email)) continue;
    taken.add(email);
    return { first_name, last_name, email, salutation: country.salutations[index % 2] as string };
  }
}

/** The stages a deal passes after it opens, each with the days it takes; it ends Won, Lost or open. */
function dealPath(random: Random): { stage: DealStage; after: number }[] {
  const path: { stage: DealStage; after: number }[] = [];
  const forward: [DealStage, number, number, number][] = [
    ['Demo', 0.8, 7, 30],
    ['Proposal', 0.72, 10, 35],
    ['Negotiation', 0.7, 10, 40],
    ['Ready to Close', 0.8, 7, 30],
    ['Won', 0.85, 5, 25],
  ];
  for (const [stage, chance, min, max] of forward) {
    const after = min + random.float() * (max - min);
    if (!random.chance(chance)) {
      path.push({ stage: 'Lost', after });
      return path;
    }
    path.push({ stage, after });
  }
  return path;
}

/**
 * The CRM's demo data: 220 companies in eleven European markets with their people, imported on
 * 2026-05-04; then six months of leads (captured, contacted, qualified, converted or dropped) and
 * deals moving through the pipeline to Won or Lost.
 */
export async function seedCrm(seed: SeedContext): Promise<void> {
  const { random } = seed;
  const names = new Set<string>();
  const emails = new Set<string>();

  const companySeeds = Array.from({ length: COMPANY_COUNT }, () => {
    const country = random.pick(COUNTRIES);
    const { name, industry } = companyName(random, names);
    return {
      country,
      name,
      industry,
      legal: random.pick(country.legalForms),
      domain: `${slugify(name, '')}.example`,
      owner: random.pick(SALES_REPS),
    };
  });
  const companyIds = await writeInGroups(
    seed,
    companySeeds,
    () => IMPORTED,
    (commands, company) => {
      const { domain } = company;
      const employees = random.weighted({
        '11-50': 15,
        '51-200': 30,
        '201-500': 25,
        '501-1000': 15,
        '1000+': 15,
      });
      const revenuePerHead = random.int(90, 400) * 1000;
      const heads = { '1-10': 8, '11-50': 35, '51-200': 120, '201-500': 350, '501-1000': 750, '1000+': 2500 }[
        employees
      ];
      return addCompany(commands, {
        name: `${company.name} ${company.legal}`,
        domain,
        website: `https://www.${domain}`,
        industry: company.industry,
        employees,
        annual_revenue:
          Math.round((heads * revenuePerHead * (PER_EUR[company.country.currency] ?? 1)) / 100_000) * 100_000,
        currency: company.country.currency,
        country: company.country.code,
        city: random.pick(company.country.cities),
        phone: phoneNumber(random, company.country),
        owner: company.owner,
        status: random.weighted({ Customer: 35, Prospect: 45, Partner: 8, 'Former Customer': 12 }),
      });
    },
  );
  const companies: Company[] = companySeeds.map((company, index) => ({
    id: (companyIds[index] as { id: number }).id,
    name: `${company.name} ${company.legal}`,
    industry: company.industry,
    country: company.country,
    currency: company.country.currency,
    domain: company.domain,
    owner: company.owner,
    contacts: [],
  }));

  const contactSeeds = companies.flatMap((company) =>
    Array.from({ length: random.int(2, 3) }, (_, index) => {
      const role = index === 0 ? random.pick(DEPARTMENTS.slice(0, 3)) : random.pick(DEPARTMENTS);
      const { salutation, ...named } = person(random, company.country, company.domain, emails);
      return { company, role, named, salutation, primary: index === 0 };
    }),
  );
  const contactIds = await writeInGroups(
    seed,
    contactSeeds,
    () => IMPORTED,
    (commands, contact) =>
      addContact(commands, {
        company_id: contact.company.id,
        salutation: contact.salutation,
        ...contact.named,
        phone: phoneNumber(random, contact.company.country),
        mobile: random.chance(0.7) ? phoneNumber(random, contact.company.country) : null,
        job_title: random.pick(contact.role.titles),
        department: contact.role.department,
        is_primary: contact.primary,
      }),
  );
  contactSeeds.forEach((contact, index) => {
    const id = (contactIds[index] as { id: number }).id;
    contact.company.contacts.push({ id, ...contact.named, job_title: '' });
  });

  // Leads: each follows a path of statuses; a converted lead is a person of a company we know.
  const span = SEED_END.getTime() - IMPORTED.getTime() - 2 * DAY;
  const steps: TimelineStep[] = [];
  const convertible = companies.flatMap((company) =>
    company.contacts.slice(1).map((contact) => ({ company, contact })),
  );
  const leadPlans = Array.from({ length: LEAD_COUNT }, (_, index) => {
    const captured = IMPORTED.getTime() + DAY + (span * (index + random.float())) / LEAD_COUNT;
    const path: { status: LeadStatus; at: number }[] = [];
    let at = later(random, captured, 0.5, 10);
    let status: LeadStatus = random.weighted({ Contacted: 85, Junk: 8, Unqualified: 7 });
    path.push({ status, at });
    while (status === 'Contacted' || status === 'Nurture' || status === 'Qualified') {
      at = later(random, at, 7, status === 'Nurture' ? 90 : 45);
      status =
        status === 'Contacted'
          ? random.weighted({ Qualified: 35, Nurture: 35, Unqualified: 25, Junk: 5 })
          : status === 'Nurture'
            ? random.weighted({ Qualified: 35, Unqualified: 30, Contacted: 35 })
            : random.weighted({ Converted: 80, Nurture: 10, Unqualified: 10 });
      path.push({ status, at });
    }
    const visible = path.filter((step) => step.at <= SEED_END.getTime());
    const converted = visible.some((step) => step.status === 'Converted');
    const known =
      converted && convertible.length > 0
        ? convertible.splice(random.int(0, convertible.length - 1), 1)[0]
        : undefined;
    return { captured, path: visible, known };
  });
  const leadIds = await writeInGroups(
    seed,
    leadPlans,
    (plan) => new Date(plan.captured),
    (commands, plan) => {
      const country = plan.known?.company.country ?? random.pick(COUNTRIES);
      const { name, industry } = plan.known
        ? { name: plan.known.company.name, industry: plan.known.company.industry }
        : companyName(random, names);
      const organization = plan.known ? name : `${name} ${random.pick(country.legalForms)}`;
      const named = plan.known?.contact ?? person(random, country, `${slugify(name, '')}.example`, emails);
      return captureLead(commands, {
        first_name: named.first_name,
        last_name: named.last_name,
        email: named.email,
        phone: random.chance(0.6) ? phoneNumber(random, country) : null,
        organization,
        job_title: random.chance(0.8) ? random.pick(random.pick(DEPARTMENTS).titles) : null,
        website: random.chance(0.7) ? `https://www.${slugify(name, '')}.example` : null,
        industry,
        employees: random.weighted({
          '1-10': 10,
          '11-50': 25,
          '51-200': 30,
          '201-500': 20,
          '501-1000': 10,
          '1000+': 5,
        }),
        annual_revenue: random.chance(0.5) ? random.int(5, 400) * 100_000 : null,
        source: random.weighted({
          Website: 28,
          Referral: 14,
          'Cold Call': 8,
          'Trade Show': 12,
          LinkedIn: 16,
          Partner: 8,
          Advertisement: 6,
          'Email Campaign': 8,
        }),
        owner: random.pick(SALES_REPS),
      });
    },
  );
  leadPlans.forEach((plan, index) => {
    const id = (leadIds[index] as { id: number }).id;
    for (const step of plan.path) {
      steps.push({
        at: new Date(step.at),
        key: `lead-${id}`,
        write: (commands) => changeLeadStatus(commands, id, step.status),
      });
    }
  });

  // Deals: one for each converted lead, and more opened directly with known companies.
  const dealPlans = [
    ...leadPlans.flatMap((plan, index) =>
      plan.known
        ? [
            {
              company: plan.known.company,
              contact: plan.known.contact,
              leadId: (leadIds[index] as { id: number }).id,
              opened: plan.path[plan.path.length - 1]?.at ?? plan.captured,
            },
          ]
        : [],
    ),
    ...Array.from({ length: DIRECT_DEALS }, (_, index) => {
      const company = random.pick(companies);
      return {
        company,
        contact: company.contacts[0] as Person,
        leadId: null,
        opened: IMPORTED.getTime() + (span * (index + random.float())) / DIRECT_DEALS,
      };
    }),
  ].sort((a, b) => a.opened - b.opened);
  const dealIds = await writeInGroups(
    seed,
    dealPlans,
    (plan) => new Date(plan.opened),
    (commands, plan) => {
      const product = random.pick(PRODUCTS);
      const kind = random.pick(DEAL_KINDS);
      const eur = random.int(product.min / 1000, product.max / 1000) * 1000;
      return openOpportunity(commands, {
        name: `${plan.company.name.split(' ').slice(0, 2).join(' ')} \u2013 ${product.name} ${kind}`,
        company_id: plan.company.id,
        contact_id: plan.contact.id,
        lead_id: plan.leadId,
        stage: 'Qualification',
        amount: Math.round((eur * (PER_EUR[plan.company.currency] ?? 1)) / 100) * 100,
        currency: plan.company.currency,
        expected_close_date: isoDate(new Date(later(random, plan.opened, 45, 150))),
        owner: plan.company.owner,
        source: random.weighted({
          Referral: 25,
          Partner: 20,
          'Email Campaign': 15,
          Website: 30,
          'Trade Show': 10,
        }),
        next_step: random.pick(NEXT_STEPS),
      });
    },
  );
  dealPlans.forEach((plan, index) => {
    const id = (dealIds[index] as { id: number }).id;
    let at = plan.opened;
    for (const { stage, after } of dealPath(random)) {
      at += after * DAY;
      if (at > SEED_END.getTime()) break;
      const move: StageMove = { stage };
      if (stage === 'Lost') {
        move.lost_reason = random.weighted(LOST_REASON_WEIGHTS);
        if (move.lost_reason === 'Other') move.lost_notes = random.pick(LOST_NOTES);
      }
      steps.push({
        at: new Date(at),
        key: `deal-${id}`,
        write: (commands) => moveOpportunity(commands, id, move),
      });
    }
  });

  await writeTimeline(seed, steps);
}
