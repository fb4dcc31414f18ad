import { isoDate } from '../clock';
import {
  addContractVersion,
  addMember,
  changeContractStatus,
  changeMemberRole,
  completeObligation,
  createObligation,
  createWorkspace,
  draftContract,
  registerCounterparty,
} from '../commands/clm/handlers';
import type { ContractStatus } from '../events/clm';
import type { SeedContext } from './context';
import {
  COUNTERPARTIES,
  COUNTERPARTIES_PER_WORKSPACE,
  CONTRACT_TYPES_SEED,
  GOVERNING_LAW,
  PROMOTIONS,
  WORKSPACES,
  type ContractTypeSeed,
  type CounterpartySeed,
  type WorkspaceSeed,
} from './clm-data';
import { companyNumbers } from './clm-registry';
import { renderContract } from './clm-text';
import { sample, slugify, writeInGroups, writeTimeline, type TimelineStep } from './toolkit';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const SET_UP = Date.parse('2025-01-06T09:00:00Z');
const SEED_END = Date.parse('2026-11-20T17:00:00Z');
const CONTRACTS_PER_WORKSPACE = 56;

type Random = SeedContext['random'];

export interface Party {
  seed: CounterpartySeed;
  id: string;
  registration_number: string;
}

const emailOf = (name: string, domain: string) => `${slugify(name, '.')}@${domain}`;

async function setUpWorkspaces(seed: SeedContext): Promise<void> {
  seed.at(new Date(SET_UP));
  for (const workspace of WORKSPACES) {
    const { id, name, legal_name, country, currency } = workspace;
    await createWorkspace(seed.commands, { workspace_id: id, name, legal_name, country, currency });
    for (const member of workspace.members) {
      await addMember(seed.commands, {
        member_id: member.id,
        workspace_id: id,
        name: member.name,
        email: emailOf(member.name, workspace.domain),
        job_title: member.job_title,
        role: member.role,
      });
    }
  }
  for (const promotion of PROMOTIONS) {
    seed.at(new Date(promotion.on));
    await changeMemberRole(seed.commands, promotion.member, promotion.to);
  }
}

async function registerParties(seed: SeedContext, workspace: WorkspaceSeed): Promise<Party[]> {
  const chosen = sample(seed.random, COUNTERPARTIES, COUNTERPARTIES_PER_WORKSPACE).map((party, index) => ({
    party,
    at: new Date(SET_UP + index * DAY + HOUR),
    numbers: companyNumbers(seed.random, party.country, party.city),
  }));
  return writeInGroups(
    seed,
    chosen,
    (item) => item.at,
    async (commands, { party, numbers }) => {
      const { id } = await registerCounterparty(commands, {
        workspace_id: workspace.id,
        legal_name: party.legal_name,
        trading_name: party.trading_name,
        ...numbers,
        country: party.country,
        address: {
          street: party.street,
          postal_code: party.postal_code,
          city: party.city,
          country: party.country,
        },
        industry: party.industry,
        contacts: party.contacts.map(([name, role, signs]) => ({
          name,
          email: emailOf(name, party.domain),
          role,
          phone: null,
          is_signatory: signs,
        })),
      });
      return { seed: party, id, registration_number: numbers.registration_number };
    },
  );
}

/** Members who may write at a time (a promotion counts from its date). */
function writersAt(workspace: WorkspaceSeed, time: number): string[] {
  return workspace.members
    .filter((member) => {
      const promotion = PROMOTIONS.find((candidate) => candidate.member === member.id);
      if (promotion && time >= Date.parse(promotion.on)) return true;
      return member.role !== 'viewer';
    })
    .map((member) => member.id);
}

/** About a third of the portfolio is recent, so that some contracts are still being negotiated. */
function createdAt(random: Random): number {
  const span = random.chance(0.3) ? 40 * DAY : SEED_END - SET_UP - 20 * DAY;
  const day = Math.floor((SEED_END - 2 * DAY - random.float() * span) / DAY) * DAY;
  return day + random.int(8, 17) * HOUR;
}

const addMonths = (time: number, months: number) => {
  const date = new Date(time);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.getTime();
};

interface Plan {
  key: string;
  id: string;
  steps: TimelineStep[];
}

/** One contract's life: drafted, versions, review, approval, signature, start, and its end. */
function planContract(
  random: Random,
  workspace: WorkspaceSeed,
  party: Party,
  created: number,
  numberIn: (year: number) => number,
) {
  const type = random.weighted(Object.fromEntries(CONTRACT_TYPES_SEED.map((t) => [t.code, t.weight])));
  const template = CONTRACT_TYPES_SEED.find((candidate) => candidate.code === type) as ContractTypeSeed;
  const year = new Date(created).getUTCFullYear();
  const reference = `${workspace.prefix}-${template.code}-${year}-${String(numberIn(year)).padStart(3, '0')}`;
  const writers = writersAt(workspace, created);
  const plan: Plan = { key: reference, id: '', steps: [] };
  const step = (at: number, write: TimelineStep['write'], reads?: string[]) => {
    if (at <= SEED_END) plan.steps.push({ at: new Date(at), key: plan.key, write, reads });
  };
  const move = (at: number, to: ContractStatus) =>
    step(at, (commands) => changeContractStatus(commands, plan.id, workspace.id, to));

  const review = created + random.int(1, 5) * DAY + random.int(1, 6) * HOUR;
  const versionTimes = [created + HOUR];
  for (let extra = random.int(0, 3), at = review; extra > 0; extra--) {
    at += random.int(2, 8) * DAY;
    versionTimes.push(at);
  }
  const approved =
    Math.max(review, versionTimes[versionTimes.length - 1] as number) + random.int(2, 10) * DAY;
  const signed = approved + random.int(1, 14) * DAY;
  const start = Math.floor((signed + random.int(0, 30) * DAY) / DAY) * DAY + 8 * HOUR;
  const months = template.terms.length > 0 ? random.pick(template.terms) : null;
  const autoRenewal = random.chance(template.autoRenewal);
  let end = months === null ? null : addMonths(start, months);
  // A renewing contract's end date is the end of its current term.
  while (autoRenewal && end !== null && months !== null && end <= SEED_END) end = addMonths(end, months);
  const notice = random.pick(template.notice);
  const value = template.value && Math.round(random.int(template.value[0], template.value[1]) / 1000) * 1000;
  const contract = {
    workspace_id: workspace.id,
    reference,
    title: `${template.type} with ${party.seed.trading_name ?? party.seed.legal_name}`,
    type: template.type,
    counterparty_id: party.id,
    owner_id: random.pick(writers),
    value,
    currency: workspace.currency,
    start_date: isoDate(new Date(start)),
    end_date: end === null ? null : isoDate(new Date(end)),
    auto_renewal: autoRenewal,
    notice_period_days: notice,
    governing_law: GOVERNING_LAW[workspace.country] ?? workspace.country,
  };
  step(created, async (commands) => {
    plan.id = (await draftContract(commands, contract)).id;
  });
  versionTimes.forEach((at, index) => {
    const author_id = random.pick(writers);
    const text = renderContract({
      workspace,
      party,
      contract,
      clauses: template.clauses,
      version: index + 1,
    });
    step(at, (commands) =>
      addContractVersion(commands, plan.id, { workspace_id: workspace.id, author_id, ...text }),
    );
  });
  move(review, 'in_review');
  const fate = random.float();
  if (fate < 0.06) {
    move(approved, 'terminated');
    return { plan, obligations: [] };
  }
  move(approved, 'approved');
  move(signed, 'signed');
  move(Math.max(start, signed + HOUR), 'active');
  let ended = end;
  if (fate < 0.12 && end !== null) {
    ended = Math.min(end - DAY, start + random.int(60, 300) * DAY);
    move(ended, 'terminated');
  } else if (end !== null && !autoRenewal) move(end, 'expired');
  const dues = obligationDues(template, start, end, notice, signed).filter(
    (due) => ended === null || due.at < ended,
  );
  return { plan, obligations: dues.map((due) => ({ ...due, signed })) };
}

/** For a recurring duty, the last occurrence before the seed ends and the next after; the notice deadline. */
function obligationDues(
  template: ContractTypeSeed,
  start: number,
  end: number | null,
  notice: number,
  signed: number,
): { title: string; at: number }[] {
  const dues: { title: string; at: number }[] = [];
  for (const obligation of template.obligations) {
    if (obligation.every === 'notice') {
      if (end !== null && end - notice * DAY > signed + DAY)
        dues.push({ title: obligation.title, at: end - notice * DAY });
      continue;
    }
    let past: number | null = null;
    let next: number | null = null;
    for (let k = 1; k < 200; k++) {
      const at = addMonths(start, obligation.every * k);
      if (end !== null && at > end) break;
      if (at <= SEED_END) past = at;
      else {
        next = at;
        break;
      }
    }
    for (const at of [past, next]) if (at !== null) dues.push({ title: obligation.title, at });
  }
  return dues.slice(0, 4);
}

function obligationSteps(
  random: Random,
  workspace: WorkspaceSeed,
  contract: Plan,
  due: { title: string; at: number; signed: number },
  index: number,
): TimelineStep[] {
  const key = `${contract.key}/obligation-${index}`;
  let id = '';
  const created = due.signed + DAY + index * HOUR;
  const dueDate = isoDate(new Date(due.at));
  const steps: TimelineStep[] = [];
  if (created > SEED_END) return steps;
  steps.push({
    at: new Date(created),
    key,
    reads: [contract.key],
    write: async (commands) => {
      id = (
        await createObligation(commands, {
          workspace_id: workspace.id,
          contract_id: contract.id,
          title: due.title,
          due_date: dueDate,
        })
      ).id;
    },
  });
  // Most past duties were done on time; the rest are overdue now.
  const done = Math.max(created + HOUR, due.at - random.int(0, 6) * DAY);
  if (due.at < SEED_END && random.chance(0.78) && done <= SEED_END) {
    steps.push({
      at: new Date(done),
      key,
      write: (commands) => completeObligation(commands, id, workspace.id, isoDate(new Date(done))),
    });
  }
  return steps;
}

/** Two workspaces, their members, counterparties and contract portfolios, with obligations. */
export async function seedContracts(seed: SeedContext): Promise<void> {
  await setUpWorkspaces(seed);
  const steps: TimelineStep[] = [];
  for (const workspace of WORKSPACES) {
    const parties = await registerParties(seed, workspace);
    const numbers = new Map<number, number>();
    const numberIn = (year: number) => {
      numbers.set(year, (numbers.get(year) ?? 0) + 1);
      return numbers.get(year) as number;
    };
    // References are numbered per year in the order the contracts were drafted.
    const times = Array.from({ length: CONTRACTS_PER_WORKSPACE }, () => createdAt(seed.random)).sort(
      (a, b) => a - b,
    );
    for (const created of times) {
      const party = seed.random.pick(parties);
      const { plan, obligations } = planContract(seed.random, workspace, party, created, numberIn);
      steps.push(...plan.steps);
      obligations.forEach((due, index) =>
        steps.push(...obligationSteps(seed.random, workspace, plan, due, index)),
      );
    }
  }
  await writeTimeline(seed, steps);
}
