import { z } from 'zod';
import {
  CONTRACT_STATUSES,
  CONTRACT_TYPES,
  MEMBER_ROLES,
  SIGNATURE_PROVIDERS,
  clmCollections,
  type ClmEvent,
  type ContractStatus,
  clmStreams,
} from '../events/clm';
import { streamCategory, type StoredEvent } from '../events/envelope';
import { date, oneOf, text, textOrNull, timestamp } from './fields';
import type { DocumentProjection, Projector } from './projection';

/**
 * The member who made a write: events name the principal as `actor` and the member it acted as as
 * `member` (events written before principals, and the seed's, name the member as `actor`).
 */
const memberOf = (event: StoredEvent): string => event.metadata.member ?? event.metadata.actor;

const count = z.number().int().nonnegative();
const workspaceId = text.meta({ description: 'The workspace the record belongs to' });

export const WorkspaceRecord = z
  .object({
    id: text.meta({ description: 'Workspace id, as sent in X-Svc-Organisation' }),
    name: text,
    legal_name: text,
    country: text.meta({ description: 'ISO 3166-1 alpha-2' }),
    currency: text.meta({ description: 'ISO 4217 reporting currency' }),
    member_count: count,
    created_at: timestamp,
  })
  .meta({ id: 'Workspace' });

export const MemberRecord = z
  .object({
    id: text.meta({ description: 'Member id, as sent in X-Svc-Actor' }),
    workspace_id: workspaceId,
    name: text,
    email: text,
    job_title: text,
    role: oneOf(MEMBER_ROLES, 'owner and editor may write; viewer only reads'),
    added_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Member' });

const Contact = z.object({
  name: text,
  email: text,
  role: text,
  phone: textOrNull,
  is_signatory: z.boolean().meta({ description: 'Signs contracts for the counterparty' }),
});

export const CounterpartyRecord = z
  .object({
    id: text,
    workspace_id: workspaceId,
    legal_name: text,
    trading_name: textOrNull,
    registration_number: text.meta({ description: 'Company register number, as the register writes it' }),
    vat_number: textOrNull.meta({ description: 'VAT identification number with its country prefix' }),
    country: text.meta({ description: 'ISO 3166-1 alpha-2 country of registration' }),
    address: z.object({ street: text, postal_code: text, city: text, country: text }),
    industry: text,
    contacts: z.array(Contact),
    contract_count: count.meta({ description: 'Contracts with this counterparty, in any status' }),
    active_contract_count: count.meta({ description: 'Of those, signed or active' }),
    created_at: timestamp,
  })
  .meta({ id: 'Counterparty' });

const Version = z.object({
  version: z.number().int().positive(),
  created_at: timestamp,
  author_id: text.meta({ description: 'The member who added the version' }),
  note: text,
  content_sha256: text.meta({ description: 'SHA-256 (hex) of the version\u2019s UTF-8 text' }),
  size_bytes: count,
});

const SignaturePreparation = z.object({
  provider: oneOf(SIGNATURE_PROVIDERS),
  version: z.number().int().positive(),
  payload_sha256: text,
  prepared_at: timestamp,
  prepared_by: text,
});

/** A contract as stored; the obligation counts are derived from `open_due_dates` when read. */
const StoredContract = z.object({
  id: text,
  workspace_id: workspaceId,
  reference: text,
  title: text,
  type: oneOf(CONTRACT_TYPES),
  counterparty_id: text,
  counterparty_name: text,
  owner_id: text,
  status: oneOf(CONTRACT_STATUSES),
  value: z.number().nullable().meta({ description: 'Total contract value in `currency`' }),
  currency: text,
  start_date: date,
  end_date: date.nullable(),
  auto_renewal: z.boolean(),
  notice_period_days: count,
  governing_law: text,
  signed_on: date.nullable(),
  current_version: z.number().int().nullable(),
  versions: z.array(Version),
  completed_obligations: count,
  last_signature_payload: SignaturePreparation.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type StoredContract = z.infer<typeof StoredContract> & {
  /** Due date of each open obligation, by obligation id. */
  open_due_dates: Record<string, string>;
};

export const ContractRecord = StoredContract.extend({
  open_obligations: count.meta({ description: 'Obligations not completed yet (overdue ones included)' }),
  overdue_obligations: count.meta({ description: 'Open obligations whose due date is before today (UTC)' }),
  next_due_date: date
    .nullable()
    .meta({ description: 'Earliest due date, today or later, of an open obligation' }),
}).meta({ id: 'Contract' });
export type ContractRecord = z.infer<typeof ContractRecord>;

const OBLIGATION_STATUSES = ['open', 'overdue', 'completed'] as const;
export const ObligationRecord = z
  .object({
    id: text,
    workspace_id: workspaceId,
    contract_id: text,
    title: text,
    due_date: date,
    status: oneOf(OBLIGATION_STATUSES, 'overdue: open and due before today (UTC), derived when read'),
    completed_on: date.nullable(),
    created_at: timestamp,
    created_by: text.meta({ description: 'The member (or seed) that created it' }),
  })
  .meta({ id: 'Obligation' });
export type ObligationRecord = z.infer<typeof ObligationRecord>;

type Event = StoredEvent & ClmEvent;
type Doc = Record<string, unknown>;

/** The id after the stream's category (`clm.member-m-acme-owner` -> `m-acme-owner`). */
export const idOfStream = (event: StoredEvent): string =>
  event.stream.slice(streamCategory(event.stream).length + 1);

const ACTIVE: readonly ContractStatus[] = ['signed', 'active'];

const workspaces: DocumentProjection = {
  collection: clmCollections.workspaces,
  handles: ['WorkspaceCreated', 'MemberAdded'],
  documentId: (event) => (event as Event).data.workspace_id as string,
  evolve(doc, stored) {
    const event = stored as Event;
    if (event.type === 'WorkspaceCreated') {
      const { workspace_id, ...rest } = event.data;
      return { id: workspace_id, ...rest, member_count: 0, created_at: event.metadata.occurred_at };
    }
    return doc && { ...doc, member_count: (doc.member_count as number) + 1 };
  },
};

const members: DocumentProjection = {
  collection: clmCollections.members,
  handles: ['MemberAdded', 'MemberRoleChanged'],
  documentId: idOfStream,
  stream: (id) => clmStreams.member(String(id)),
  ownUpdatedAt: true,
  evolve(doc, stored) {
    const event = stored as Event;
    const at = event.metadata.occurred_at;
    if (event.type === 'MemberAdded') {
      const { member_id, ...rest } = event.data;
      return { id: member_id, ...rest, added_at: at, updated_at: at };
    }
    if (event.type !== 'MemberRoleChanged') return doc;
    return doc && { ...doc, role: event.data.to, updated_at: at };
  },
};

const counterparties: DocumentProjection = {
  collection: clmCollections.counterparties,
  handles: ['CounterpartyRegistered', 'ContractDrafted', 'ContractStatusChanged'],
  documentId: (event) => {
    const { data } = event as Event;
    return 'counterparty_id' in data ? data.counterparty_id : idOfStream(event);
  },
  evolve(doc, stored) {
    const event = stored as Event;
    if (event.type === 'CounterpartyRegistered') {
      return {
        ...event.data,
        contract_count: 0,
        active_contract_count: 0,
        created_at: event.metadata.occurred_at,
      };
    }
    if (!doc) return null;
    if (event.type === 'ContractDrafted')
      return { ...doc, contract_count: (doc.contract_count as number) + 1 };
    if (event.type !== 'ContractStatusChanged') return doc;
    const change = Number(ACTIVE.includes(event.data.to)) - Number(ACTIVE.includes(event.data.from));
    return { ...doc, active_contract_count: (doc.active_contract_count as number) + change };
  },
};

function evolveContract(doc: StoredContract | null, stored: StoredEvent): StoredContract | null {
  const event = stored as Event;
  const at = event.metadata.occurred_at;
  if (event.type === 'ContractDrafted') {
    return {
      ...event.data,
      status: 'draft',
      signed_on: null,
      current_version: null,
      versions: [],
      open_due_dates: {},
      completed_obligations: 0,
      last_signature_payload: null,
      created_at: at,
      updated_at: at,
    };
  }
  if (!doc) return null;
  switch (event.type) {
    case 'ContractVersionAdded': {
      const { version, author_id, note, content, content_sha256 } = event.data;
      const size_bytes = Buffer.byteLength(content, 'utf8');
      const entry = { version, created_at: at, author_id, note, content_sha256, size_bytes };
      return { ...doc, current_version: version, versions: [...doc.versions, entry], updated_at: at };
    }
    case 'ContractStatusChanged': {
      const signed_on = event.data.to === 'signed' ? event.data.changed_on.slice(0, 10) : doc.signed_on;
      return { ...doc, status: event.data.to, signed_on, updated_at: at };
    }
    case 'SignaturePayloadPrepared': {
      const { provider, version, payload_sha256, prepared_at } = event.data;
      const prepared = { provider, version, payload_sha256, prepared_at, prepared_by: memberOf(event) };
      return { ...doc, last_signature_payload: prepared, updated_at: at };
    }
    case 'ObligationCreated':
      return { ...doc, open_due_dates: { ...doc.open_due_dates, [event.data.id]: event.data.due_date } };
    case 'ObligationCompleted': {
      const completed = idOfStream(event);
      const open = Object.fromEntries(Object.entries(doc.open_due_dates).filter(([id]) => id !== completed));
      return { ...doc, open_due_dates: open, completed_obligations: doc.completed_obligations + 1 };
    }
    default:
      return doc;
  }
}

const contracts: DocumentProjection<StoredContract> = {
  collection: clmCollections.contracts,
  handles: [
    'ContractDrafted',
    'ContractVersionAdded',
    'ContractStatusChanged',
    'SignaturePayloadPrepared',
    'ObligationCreated',
    'ObligationCompleted',
  ],
  documentId: (event) => {
    const { type, data } = event as Event;
    return type === 'ObligationCreated' || type === 'ObligationCompleted'
      ? data.contract_id
      : idOfStream(event);
  },
  evolve: evolveContract,
  ownUpdatedAt: true,
};

export const obligationsProjection: DocumentProjection = {
  collection: clmCollections.obligations,
  handles: ['ObligationCreated', 'ObligationCompleted'],
  documentId: idOfStream,
  stream: (id) => clmStreams.obligation(String(id)),
  evolve(doc: Doc | null, stored) {
    const event = stored as Event;
    if (event.type === 'ObligationCreated') {
      const at = event.metadata.occurred_at;
      return {
        ...event.data,
        status: 'open',
        completed_on: null,
        created_at: at,
        created_by: memberOf(event),
      };
    }
    if (event.type !== 'ObligationCompleted') return doc;
    return doc && { ...doc, status: 'completed', completed_on: event.data.completed_on };
  },
};

export const clmProjector: Projector = {
  name: 'clm',
  // 2: every record carries created_at and updated_at (`evolveStamped`).
  version: 2,
  projections: [workspaces, members, counterparties, contracts, obligationsProjection],
};
