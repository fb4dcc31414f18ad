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
    expect(recordTitle('leave', '5', { id: 5, employee_name: 'Ana Silva' })).toBe('Leave 5');
    expect(recordTitle('career-sites', '1', undefined)).toBe('Career site 1');
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
