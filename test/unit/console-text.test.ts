import { fieldLabel } from '../../console/src/api/field-text';
import { inlinePieces, inlinePlainText } from '../../console/src/api/inline-markdown';
import { recordTitle, singular } from '../../console/src/api/record-title';

describe("the console's record titles", () => {
  it.each([
    ['employees', 'employee'],
    ['companies', 'company'],
    ['addresses', 'address'],
    ['stage-changes', 'stage-change'],
    ['leave', 'leave'],
    ['evidence', 'evidence'],
    ['status', 'status'],
  ])('names one of the %s: %s', (resource, one) => {
    expect(singular(resource)).toBe(one);
  });

  it('titles a record by its resource, id and whichever field names it', () => {
    expect(recordTitle('employees', '3', { id: 3, first_name: 'Ana', last_name: 'Silva' })).toBe(
      'Employee 3 · Ana Silva',
    );
    expect(recordTitle('competitors', '2', { id: 2, name: 'Beta Smile', website: null })).toBe(
      'Competitor 2 · Beta Smile',
    );
    expect(recordTitle('messages', '7', { subject: 'Minutes', from_name: 'Bo' })).toBe('Message 7 · Minutes');
    expect(recordTitle('leave', '5', { id: 5, employee_name: 'Ana Silva' })).toBe('Leave 5 · Ana Silva');
    expect(recordTitle('career-sites', '1', undefined)).toBe('Career site 1');
    expect(recordTitle('knowledge', '4', { id: 4, title: 'VPN on a phone' })).toBe(
      'Knowledge article 4 · VPN on a phone',
    );
  });

  it('quotes a record by its reference and cuts a long name at a word', () => {
    const request = {
      id: 1,
      ref: 'REQ-000001',
      title: 'Letter confirming employment for a mortgage application',
    };
    expect(recordTitle('requests', '1', request)).toBe(
      'Request REQ-000001 · Letter confirming employment for a…',
    );
  });

  it('shows no erased name', () => {
    expect(recordTitle('employees', '4', { first_name: '[erased]', last_name: '[erased]' })).toBe(
      'Employee 4',
    );
    expect(recordTitle('contacts', '4', { full_name: '[erased]', first_name: 'Ana' })).toBe(
      'Contact 4 · Ana',
    );
  });
});

describe("the console's field labels", () => {
  it.each([
    ['employee_name', 'Employee name'],
    ['assignee_id', 'Assignee'],
    ['sla_state', 'SLA state'],
    ['is_active', 'Active'],
    ['id', 'ID'],
    ['stage-changes', 'Stage changes'],
  ])('calls %s %s', (name, label) => {
    expect(fieldLabel(name)).toBe(label);
  });
});

describe("the console's inline Markdown", () => {
  it('cuts a description into text and code spans', () => {
    expect(inlinePieces('needs the cookie `svc_session` or its `market:` role')).toEqual([
      { kind: 'text', text: 'needs the cookie ' },
      { kind: 'code', text: 'svc_session' },
      { kind: 'text', text: ' or its ' },
      { kind: 'code', text: 'market:' },
      { kind: 'text', text: ' role' },
    ]);
  });

  it('reads longer backtick runs, emphasis and strong text; underscores stay text', () => {
    expect(inlinePieces('`` a ` b `` is *mine*, **not** from_date_')).toEqual([
      { kind: 'code', text: 'a ` b' },
      { kind: 'text', text: ' is ' },
      { kind: 'emphasis', text: 'mine' },
      { kind: 'text', text: ', ' },
      { kind: 'strong', text: 'not' },
      { kind: 'text', text: ' from_date_' },
    ]);
  });

  it('leaves a backtick without its closing run, and markup-like text, as text', () => {
    expect(inlinePieces('the market`s figures')).toEqual([{ kind: 'text', text: 'the market`s figures' }]);
    expect(inlinePieces('<b>12 * 3</b>')).toEqual([{ kind: 'text', text: '<b>12 * 3</b>' }]);
  });

  it('gives the plain text for attributes', () => {
    expect(inlinePlainText('`x-required-role` of *each* write')).toBe('x-required-role of each write');
  });
});
