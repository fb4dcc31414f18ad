import { z } from 'zod';
import { defineEvent, ownPersonalData, type EventsOf } from './catalog';

const ref = z.string().min(1);
const timestamp = z.string();
const date = z.string().meta({ description: 'YYYY-MM-DD' });
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** Who may do what in a workspace: owners and editors write, viewers only read. */
export const MEMBER_ROLES = ['owner', 'editor', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
export const WRITING_ROLES: readonly MemberRole[] = ['owner', 'editor'];

/** The lifecycle of a contract, as CLM products name it (see commands/clm/contracts.ts for the moves). */
export const CONTRACT_STATUSES = [
  'draft',
  'in_review',
  'approved',
  'signed',
  'active',
  'expired',
  'terminated',
] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

export const CONTRACT_TYPES = [
  'Master Services Agreement',
  'Statement of Work',
  'Non-Disclosure Agreement',
  'Data Processing Agreement',
  'Software Licence',
  'Supply Agreement',
  'Distribution Agreement',
  'Consulting Agreement',
  'Lease',
] as const;

/** Stored obligation states; `overdue` is reported at read time for open obligations past their date. */
export const OBLIGATION_STATES = ['open', 'completed'] as const;

export const SIGNATURE_PROVIDERS = ['docusign', 'dropbox_sign'] as const;
export type SignatureProvider = (typeof SIGNATURE_PROVIDERS)[number];

const Contact = z.object({
  name: z.string(),
  email: z.string(),
  role: z.string(),
  phone: z.string().nullable(),
  is_signatory: z.boolean(),
});
export type CounterpartyContact = z.infer<typeof Contact>;

const Signer = z.object({ name: z.string(), email: z.string() });

export const clmEvents = [
  defineEvent(
    'WorkspaceCreated',
    z.object({
      workspace_id: ref,
      name: z.string(),
      legal_name: z.string(),
      country: z.string().length(2),
      currency: z.string().length(3),
    }),
  ),
  defineEvent(
    'MemberAdded',
    z.object({
      member_id: ref,
      workspace_id: ref,
      name: z.string(),
      email: z.string(),
      job_title: z.string(),
      role: z.enum(MEMBER_ROLES),
    }),
    { personal: ownPersonalData('name', 'email') },
  ),
  defineEvent(
    'MemberRoleChanged',
    z.object({ workspace_id: ref, from: z.enum(MEMBER_ROLES), to: z.enum(MEMBER_ROLES) }),
  ),
  defineEvent(
    'CounterpartyRegistered',
    z.object({
      id: ref,
      workspace_id: ref,
      legal_name: z.string(),
      trading_name: z.string().nullable(),
      registration_number: z.string(),
      vat_number: z.string().nullable(),
      country: z.string().length(2),
      address: z.object({
        street: z.string(),
        postal_code: z.string(),
        city: z.string(),
        country: z.string().length(2),
      }),
      industry: z.string(),
      contacts: z.array(Contact),
    }),
    /** Contacts have no record of their own: their details are keyed to the counterparty that lists them. */
    { personal: ownPersonalData('contacts[].name', 'contacts[].email', 'contacts[].phone') },
  ),
  defineEvent(
    'ContractDrafted',
    z.object({
      id: ref,
      workspace_id: ref,
      reference: z.string(),
      title: z.string(),
      type: z.enum(CONTRACT_TYPES),
      counterparty_id: ref,
      /** The counterparty's legal name when the contract was drafted, for search and display. */
      counterparty_name: z.string(),
      owner_id: ref,
      value: z.number().nonnegative().nullable(),
      currency: z.string().length(3),
      start_date: date,
      end_date: date.nullable(),
      auto_renewal: z.boolean(),
      notice_period_days: z.number().int().nonnegative(),
      governing_law: z.string(),
    }),
  ),
  defineEvent(
    'ContractVersionAdded',
    z.object({
      workspace_id: ref,
      version: z.number().int().positive(),
      author_id: ref,
      note: z.string(),
      /** The rendered text of this version; its SHA-256 is `content_sha256`. */
      content: z.string(),
      content_sha256: sha256,
    }),
  ),
  defineEvent(
    'ContractStatusChanged',
    z.object({
      workspace_id: ref,
      counterparty_id: ref,
      from: z.enum(CONTRACT_STATUSES),
      to: z.enum(CONTRACT_STATUSES),
      changed_on: timestamp,
    }),
  ),
  defineEvent(
    'SignaturePayloadPrepared',
    z.object({
      workspace_id: ref,
      provider: z.enum(SIGNATURE_PROVIDERS),
      version: z.number().int().positive(),
      content_sha256: sha256,
      payload_sha256: sha256,
      signers: z.array(Signer),
      prepared_at: timestamp,
    }),
    /** Signers are named by address only: keyed to the contract they are asked to sign. */
    { personal: ownPersonalData('signers[].name', 'signers[].email') },
  ),
  defineEvent(
    'ObligationCreated',
    z.object({ id: ref, workspace_id: ref, contract_id: ref, title: z.string(), due_date: date }),
  ),
  defineEvent('ObligationCompleted', z.object({ workspace_id: ref, contract_id: ref, completed_on: date })),
] as const;

export type ClmEvent = EventsOf<typeof clmEvents>;
export type ClmEventOf<Type extends ClmEvent['type']> = Extract<ClmEvent, { type: Type }>;

export const clmStreams = {
  workspace: (id: string) => `clm.workspace-${id}`,
  member: (id: string) => `clm.member-${id}`,
  counterparty: (id: string) => `clm.counterparty-${id}`,
  contract: (id: string) => `clm.contract-${id}`,
  obligation: (id: string) => `clm.obligation-${id}`,
};

export const clmCollections = {
  workspaces: 'clm.workspaces',
  members: 'clm.members',
  counterparties: 'clm.counterparties',
  contracts: 'clm.contracts',
  obligations: 'clm.obligations',
} as const;
