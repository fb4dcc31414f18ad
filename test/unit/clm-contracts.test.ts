import {
  contentSha256,
  contractDecider,
  type ContractCommand,
  type MemberFacts,
} from '../../src/commands/clm/contracts';
import type { ClmEventOf, ContractStatus } from '../../src/events/clm';
import { deciderSpec } from '../support/decider-spec';

const given = deciderSpec(contractDecider);
const at = '2026-11-21T09:30:00Z';
const WS = 'ws-acme';

const drafted: ClmEventOf<'ContractDrafted'> = {
  type: 'ContractDrafted',
  data: {
    id: 'ctr_1',
    workspace_id: WS,
    reference: 'ACME-MSA-2026-001',
    title: 'MSA with Nordwind',
    type: 'Master Services Agreement',
    counterparty_id: 'cp_1',
    counterparty_name: 'Nordwind Cloud GmbH',
    owner_id: 'm-acme-owner',
    value: 250_000,
    currency: 'EUR',
    start_date: '2026-01-01',
    end_date: '2027-12-31',
    auto_renewal: false,
    notice_period_days: 90,
    governing_law: 'Germany',
  },
};
const owner: MemberFacts = { workspace_id: WS, role: 'owner' };
const versioned = (version: number, content = `text ${version}`): ClmEventOf<'ContractVersionAdded'> => ({
  type: 'ContractVersionAdded',
  data: {
    workspace_id: WS,
    version,
    author_id: 'm-acme-owner',
    note: 'n',
    content,
    content_sha256: contentSha256(content),
  },
});
const moved = (from: ContractStatus, to: ContractStatus): ClmEventOf<'ContractStatusChanged'> => ({
  type: 'ContractStatusChanged',
  data: { workspace_id: WS, counterparty_id: 'cp_1', from, to, changed_on: at },
});
const change = (to: ContractStatus, workspace_id = WS): ContractCommand => ({
  type: 'ChangeContractStatus',
  workspace_id,
  to,
  at,
});
const addVersion = (author = owner): ContractCommand => ({
  type: 'AddContractVersion',
  workspace_id: WS,
  author_id: 'm-acme-editor',
  author,
  note: 'Redlines',
  content: 'text 2',
});
const prepare = (version = 1): ContractCommand => ({
  type: 'PrepareSignaturePayload',
  workspace_id: WS,
  provider: 'docusign',
  version,
  payload_sha256: 'a'.repeat(64),
  signers: [{ name: 'Henrik Brandt', email: 'henrik@nordwind.example' }],
  at,
});

describe('drafting a contract', () => {
  const draft = (
    overrides: Partial<Extract<ContractCommand, { type: 'DraftContract' }>> = {},
  ): ContractCommand => ({
    type: 'DraftContract',
    contract: drafted.data,
    counterparty: { workspace_id: WS },
    owner,
    ...overrides,
  });

  it('drafts a contract with a counterparty and an owner of its workspace', () => {
    given([]).when(draft()).then([drafted]);
  });

  it('refuses a counterparty of another workspace, as if it did not exist', () => {
    given([])
      .when(draft({ counterparty: { workspace_id: 'ws-globex' } }))
      .thenThrows({ code: 'validation_error' });
    given([])
      .when(draft({ counterparty: undefined }))
      .thenThrows({ code: 'validation_error' });
  });

  it('refuses an owner who is a viewer or belongs elsewhere', () => {
    given([])
      .when(draft({ owner: { workspace_id: WS, role: 'viewer' } }))
      .thenThrows({ code: 'validation_error' });
    given([])
      .when(draft({ owner: { workspace_id: 'ws-globex', role: 'owner' } }))
      .thenThrows({ code: 'validation_error' });
  });

  it('refuses a second draft on the same stream', () => {
    given([drafted]).when(draft()).thenThrows({ code: 'already_exists' });
  });
});

describe('versions', () => {
  it('numbers the next version and hashes its content', () => {
    given([drafted, versioned(1)])
      .when(addVersion())
      .then([
        {
          type: 'ContractVersionAdded',
          data: {
            workspace_id: WS,
            version: 2,
            author_id: 'm-acme-editor',
            note: 'Redlines',
            content: 'text 2',
            content_sha256: contentSha256('text 2'),
          },
        },
      ]);
  });

  it('accepts versions only while the contract is negotiated', () => {
    given([drafted, versioned(1), moved('draft', 'in_review'), moved('in_review', 'approved')])
      .when(addVersion())
      .thenThrows({ code: 'illegal_transition' });
  });

  it('refuses an author who may not write', () => {
    given([drafted])
      .when(addVersion({ workspace_id: WS, role: 'viewer' }))
      .thenThrows({ code: 'validation_error' });
  });
});

describe('status moves', () => {
  it('moves along the lifecycle', () => {
    given([drafted, versioned(1)])
      .when(change('in_review'))
      .then([moved('draft', 'in_review')]);
    given([
      drafted,
      versioned(1),
      moved('draft', 'in_review'),
      moved('in_review', 'approved'),
      moved('approved', 'signed'),
    ])
      .when(change('active'))
      .then([moved('signed', 'active')]);
  });

  it.each([
    ['draft', 'signed'],
    ['approved', 'active'],
    ['expired', 'active'],
    ['terminated', 'draft'],
  ] as const)('refuses %s -> %s with 409', (from, to) => {
    const history =
      from === 'draft' ? [drafted, versioned(1)] : [drafted, versioned(1), moved('draft', from)];
    given(history).when(change(to)).thenThrows({ code: 'illegal_transition' });
  });

  it('will not send a contract without a version to review', () => {
    given([drafted]).when(change('in_review')).thenThrows({ code: 'illegal_transition' });
  });

  it('changes nothing when the status is already the one asked for', () => {
    given([drafted]).when(change('draft')).then([]);
  });

  it('does not find a contract of another workspace', () => {
    given([drafted, versioned(1)])
      .when(change('in_review', 'ws-globex'))
      .thenThrows({ code: 'not_found' });
    given([]).when(change('in_review')).thenThrows({ code: 'not_found' });
  });
});

describe('preparing a signature payload', () => {
  it('records the provider, version, content and payload hashes and the signers', () => {
    given([drafted, versioned(1)])
      .when(prepare())
      .then([
        {
          type: 'SignaturePayloadPrepared',
          data: {
            workspace_id: WS,
            provider: 'docusign',
            version: 1,
            content_sha256: contentSha256('text 1'),
            payload_sha256: 'a'.repeat(64),
            signers: [{ name: 'Henrik Brandt', email: 'henrik@nordwind.example' }],
            prepared_at: at,
          },
        },
      ]);
  });

  it('refuses a contract that is signed or has no version', () => {
    given([drafted]).when(prepare()).thenThrows({ code: 'illegal_transition' });
    given([
      drafted,
      versioned(1),
      moved('draft', 'in_review'),
      moved('in_review', 'approved'),
      moved('approved', 'signed'),
    ])
      .when(prepare())
      .thenThrows({ code: 'illegal_transition' });
  });

  it('refuses a payload built from a version that is no longer current', () => {
    given([drafted, versioned(1), versioned(2)])
      .when(prepare(1))
      .thenThrows({ code: 'concurrency_conflict' });
  });
});
