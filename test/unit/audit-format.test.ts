import type { StoredEvent } from '../../src/events/envelope';
import { csvCell, formatEvent, header } from '../../src/audit/format';

const event: StoredEvent = {
  event_id: 'e1',
  stream: 'esm.request-1',
  revision: 0,
  position: 7,
  type: 'RequestSubmitted',
  schema_version: 1,
  data: { title: '=HYPERLINK("http://evil.example","Click")' },
  metadata: {
    actor: '@SUM(1+1)',
    request_id: '-2-3',
    correlation_id: 'c',
    causation_id: null,
    occurred_at: '2026-11-21T09:30:00Z',
  },
  prev_hash: '0'.repeat(64),
  hash: 'a'.repeat(64),
};

describe('CSV export of the log', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1-1', "'-1-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['=A1,B1', `"'=A1,B1"`],
    ['plain', 'plain'],
    ['a=b', 'a=b'],
  ])('neutralises a cell that a spreadsheet would run as a formula: %j -> %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('writes an event whose actor and request id look like formulas as text', () => {
    const cells = formatEvent(event, 'csv');
    expect(cells).toContain(",'@SUM(1+1),");
    expect(cells).toContain(",'-2-3,");
    expect(cells).not.toMatch(/,[=+\-@]/);
  });

  it('writes the opened values in their own column, after the data as stored', () => {
    const sealed = { ...event, data: { title: 'pd1:t:crm.contact-1:0a1b2c3d4e5f6a7b:AAAA' } };
    const columns = (header('csv') as string).split(',');
    expect(columns.slice(columns.indexOf('data'), columns.indexOf('data') + 2)).toEqual(['data', 'opened']);
    const row = formatEvent({ ...sealed, opened: { '/title': 'Ada' } }, 'csv');
    expect(row).toContain(
      `,"{""title"":""pd1:t:crm.contact-1:0a1b2c3d4e5f6a7b:AAAA""}","{""/title"":""Ada""}",`,
    );
    // An event with no sealed value has an empty cell there.
    expect(formatEvent(event, 'csv')).toContain('"}",,' + '0'.repeat(64));
  });
});
