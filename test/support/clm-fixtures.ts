import {
  addContractVersion,
  addMember,
  changeContractStatus,
  completeObligation,
  createObligation,
  createWorkspace,
  draftContract,
  registerCounterparty,
  type ContractInput,
  type CounterpartyInput,
} from '../../src/commands/clm/handlers';
import type { ContractStatus } from '../../src/events/clm';
import type { SeedContext } from '../../src/seed/context';

export const ACME = 'ws-acme';
export const GLOBEX = 'ws-globex';

const counterparty = (workspace: string, legal_name: string, signs: boolean): CounterpartyInput => ({
  workspace_id: workspace,
  legal_name,
  trading_name: null,
  registration_number: 'HRB 123456 (Amtsgericht Hamburg)',
  vat_number: 'DE123456789',
  country: 'DE',
  address: { street: 'Speicherstraße 12', postal_code: '20457', city: 'Hamburg', country: 'DE' },
  industry: 'Cloud hosting',
  contacts: [
    {
      name: 'Henrik Brandt',
      email: `henrik@${legal_name.split(' ')[0]?.toLowerCase()}.example`,
      role: 'CEO',
      phone: null,
      is_signatory: signs,
    },
    {
      name: 'Sophie Lange',
      email: `sophie@${legal_name.split(' ')[0]?.toLowerCase()}.example`,
      role: 'Sales',
      phone: null,
      is_signatory: false,
    },
  ],
});

const contract = (
  overrides: Partial<ContractInput> & Pick<ContractInput, 'workspace_id' | 'counterparty_id' | 'owner_id'>,
): ContractInput => ({
  reference: 'ACME-MSA-2026-001',
  title: 'Master Services Agreement with Nordwind',
  type: 'Master Services Agreement',
  value: 250_000,
  currency: 'EUR',
  start_date: '2026-01-01',
  end_date: '2027-12-31',
  auto_renewal: true,
  notice_period_days: 90,
  governing_law: 'Germany',
  ...overrides,
});

/**
 * Two workspaces. Acme: an owner, an editor and a viewer; counterparties Nordwind (with a signatory)
 * and Quiet Ltd (none); contracts `approved` (2 versions), `active` (obligations overdue, upcoming
 * and completed), `draft` (no version) and `inReview` (with Quiet Ltd). Globex: an owner, a
 * counterparty, one contract in review with one obligation. The clock of the harness is 2026-11-21.
 */
export async function clmFixtures(seed: SeedContext) {
  const { commands } = seed;
  await createWorkspace(commands, {
    workspace_id: ACME,
    name: 'Acme',
    legal_name: 'Acme GmbH',
    country: 'DE',
    currency: 'EUR',
  });
  await createWorkspace(commands, {
    workspace_id: GLOBEX,
    name: 'Globex',
    legal_name: 'Globex B.V.',
    country: 'NL',
    currency: 'EUR',
  });
  const member = (member_id: string, workspace_id: string, role: 'owner' | 'editor' | 'viewer') =>
    addMember(commands, {
      member_id,
      workspace_id,
      name: member_id,
      email: `${member_id}@example.com`,
      job_title: 'Counsel',
      role,
    });
  await member('m-acme-owner', ACME, 'owner');
  await member('m-acme-editor', ACME, 'editor');
  await member('m-acme-viewer', ACME, 'viewer');
  await member('m-globex-owner', GLOBEX, 'owner');

  const { id: nordwind } = await registerCounterparty(
    commands,
    counterparty(ACME, 'Nordwind Cloud GmbH', true),
  );
  const { id: quiet } = await registerCounterparty(commands, counterparty(ACME, 'Quiet Ltd', false));
  const { id: polder } = await registerCounterparty(
    commands,
    counterparty(GLOBEX, 'Polder Payroll B.V.', true),
  );

  const version = (id: string, workspace_id: string, author_id: string, content: string) =>
    addContractVersion(commands, id, { workspace_id, author_id, note: 'Draft', content });
  const moveTo = async (id: string, workspace: string, statuses: ContractStatus[]) => {
    for (const status of statuses) await changeContractStatus(commands, id, workspace, status);
  };
  const acme = { workspace_id: ACME, counterparty_id: nordwind, owner_id: 'm-acme-owner' };

  const { id: approved } = await draftContract(commands, contract({ ...acme }));
  await version(approved, ACME, 'm-acme-owner', 'Version one of the MSA.');
  await moveTo(approved, ACME, ['in_review']);
  await version(approved, ACME, 'm-acme-editor', 'Version two of the MSA.');
  await moveTo(approved, ACME, ['approved']);

  const { id: active } = await draftContract(
    commands,
    contract({
      ...acme,
      reference: 'ACME-SUP-2026-002',
      title: 'Supply Agreement with Nordwind',
      type: 'Supply Agreement',
    }),
  );
  await version(active, ACME, 'm-acme-owner', 'The supply agreement.');
  await moveTo(active, ACME, ['in_review', 'approved', 'signed', 'active']);
  const obligation = async (workspace_id: string, contract_id: string, title: string, due_date: string) =>
    (await createObligation(commands, { workspace_id, contract_id, title, due_date })).id;
  const overdue = await obligation(ACME, active, 'Quarterly volume forecast', '2026-11-01');
  const upcoming = await obligation(ACME, active, 'Annual quality audit', '2026-12-15');
  const later = await obligation(ACME, active, 'Price indexation review', '2027-03-01');
  const completed = await obligation(ACME, active, 'Kick-off meeting', '2026-10-01');
  await completeObligation(commands, completed, ACME, '2026-10-01');

  const { id: draft } = await draftContract(
    commands,
    contract({
      ...acme,
      reference: 'ACME-NDA-2026-003',
      title: 'Mutual NDA with Nordwind',
      type: 'Non-Disclosure Agreement',
      value: null,
    }),
  );
  const { id: inReview } = await draftContract(
    commands,
    contract({
      ...acme,
      counterparty_id: quiet,
      reference: 'ACME-CON-2026-004',
      title: 'Consulting Agreement with Quiet',
      type: 'Consulting Agreement',
    }),
  );
  await version(inReview, ACME, 'm-acme-owner', 'Consulting terms.');
  await moveTo(inReview, ACME, ['in_review']);

  const { id: globexContract } = await draftContract(
    commands,
    contract({
      workspace_id: GLOBEX,
      counterparty_id: polder,
      owner_id: 'm-globex-owner',
      reference: 'GLX-MSA-2026-001',
      title: 'Payroll Services Agreement with Polder',
    }),
  );
  await version(globexContract, GLOBEX, 'm-globex-owner', 'Payroll services.');
  await moveTo(globexContract, GLOBEX, ['in_review']);
  const globexObligation = await obligation(GLOBEX, globexContract, 'Quarterly payroll audit', '2026-11-10');

  return {
    nordwind,
    quiet,
    polder,
    approved,
    active,
    draft,
    inReview,
    overdue,
    upcoming,
    later,
    completed,
    globexContract,
    globexObligation,
  };
}

export type ClmFixtures = Awaited<ReturnType<typeof clmFixtures>>;
