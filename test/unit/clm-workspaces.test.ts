import { counterpartyDecider } from '../../src/commands/clm/counterparties';
import { memberDecider, workspaceDecider } from '../../src/commands/clm/workspaces';
import type { ClmEventOf } from '../../src/events/clm';
import { deciderSpec } from '../support/decider-spec';

const workspace: ClmEventOf<'WorkspaceCreated'> = {
  type: 'WorkspaceCreated',
  data: { workspace_id: 'ws-acme', name: 'Acme', legal_name: 'Acme GmbH', country: 'DE', currency: 'EUR' },
};
const member: ClmEventOf<'MemberAdded'> = {
  type: 'MemberAdded',
  data: {
    member_id: 'm-acme-viewer',
    workspace_id: 'ws-acme',
    name: 'Lena',
    email: 'lena@acme.example',
    job_title: 'Controller',
    role: 'viewer',
  },
};

describe('workspaces', () => {
  it('creates a workspace once, under a slug id', () => {
    deciderSpec(workspaceDecider)([])
      .when({ type: 'CreateWorkspace', workspace: workspace.data })
      .then([workspace]);
    deciderSpec(workspaceDecider)([workspace])
      .when({ type: 'CreateWorkspace', workspace: workspace.data })
      .thenThrows({ code: 'already_exists' });
    deciderSpec(workspaceDecider)([])
      .when({ type: 'CreateWorkspace', workspace: { ...workspace.data, workspace_id: 'WS Acme' } })
      .thenThrows({ code: 'validation_error' });
  });
});

describe('members', () => {
  const given = deciderSpec(memberDecider);

  it('adds a member to a workspace that exists', () => {
    given([]).when({ type: 'AddMember', member: member.data, workspaceExists: true }).then([member]);
    given([])
      .when({ type: 'AddMember', member: member.data, workspaceExists: false })
      .thenThrows({ code: 'validation_error' });
    given([member])
      .when({ type: 'AddMember', member: member.data, workspaceExists: true })
      .thenThrows({ code: 'already_exists' });
  });

  it('changes a role, recording both roles; the same role changes nothing', () => {
    given([member])
      .when({ type: 'ChangeMemberRole', role: 'editor' })
      .then([{ type: 'MemberRoleChanged', data: { workspace_id: 'ws-acme', from: 'viewer', to: 'editor' } }]);
    given([member]).when({ type: 'ChangeMemberRole', role: 'viewer' }).then([]);
    given([]).when({ type: 'ChangeMemberRole', role: 'viewer' }).thenThrows({ code: 'not_found' });
  });
});

describe('counterparties', () => {
  const registered: ClmEventOf<'CounterpartyRegistered'> = {
    type: 'CounterpartyRegistered',
    data: {
      id: 'cp_1',
      workspace_id: 'ws-acme',
      legal_name: 'Nordwind Cloud GmbH',
      trading_name: null,
      registration_number: 'HRB 1',
      vat_number: 'DE123456789',
      country: 'DE',
      address: { street: 'S 1', postal_code: '20457', city: 'Hamburg', country: 'DE' },
      industry: 'Cloud',
      contacts: [
        { name: 'A', email: 'a@n.example', role: 'CEO', phone: null, is_signatory: true },
        { name: 'B', email: 'b@n.example', role: 'Sales', phone: null, is_signatory: false },
      ],
    },
  };
  const given = deciderSpec(counterpartyDecider);

  it('registers a counterparty in a workspace that exists, with distinct contact emails', () => {
    given([])
      .when({ type: 'RegisterCounterparty', counterparty: registered.data, workspaceExists: true })
      .then([registered]);
    given([])
      .when({ type: 'RegisterCounterparty', counterparty: registered.data, workspaceExists: false })
      .thenThrows({ code: 'validation_error' });
    const twice = {
      ...registered.data,
      contacts: [...registered.data.contacts, { ...registered.data.contacts[0]!, email: 'A@n.example' }],
    };
    given([])
      .when({ type: 'RegisterCounterparty', counterparty: twice, workspaceExists: true })
      .thenThrows({ code: 'validation_error' });
  });
});
