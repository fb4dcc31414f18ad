import pino from 'pino';
import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { esmModule } from '../../src/api/esm';
import { createModuleApp } from '../../src/api/kit/app';
import { createIdentity } from '../../src/api/kit/identity';
import { loggedUrl } from '../../src/api/kit/logging';
import { SERVER_SECRET, TOKEN, openEsm, type EsmHarness } from '../support/esm-harness';

/** Request logs keep no search terms nor other free text a client sends in a query (issue 49, leak 7). */

const AUDITOR = 'auditor-token-request-log';
const EMAIL = 'ana.quorlane@example.com';

let h: EsmHarness;
let lines: string[];
let moduleApp: ReturnType<typeof createModuleApp>;
let audit: ReturnType<typeof createAuditApp>;
beforeAll(async () => {
  h = await openEsm();
  lines = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  moduleApp = createModuleApp(
    esmModule,
    { ...h.suite, logger },
    { apiToken: TOKEN, sessionSecret: SERVER_SECRET },
  );
  const services = { ...h.suite, logger, config: { apiToken: TOKEN } };
  audit = createAuditApp(
    services,
    AUDITOR,
    undefined,
    createIdentity({ auditToken: AUDITOR, apiToken: TOKEN }),
  );
});
afterAll(() => h.close());

const logged = () => lines.join('');

describe('the request log', () => {
  it('shows the length of a search term, never the term', async () => {
    await request(moduleApp)
      .get(`/api/v1/requests?q=${encodeURIComponent(EMAIL)}&limit=5`)
      .expect(200);
    expect(logged()).toContain(`/api/v1/requests?q=[${EMAIL.length} chars]&limit=5`);
    expect(logged()).not.toContain('quorlane');
  });

  it('shows no free-text filter value on the audit API either, nor in a refused request', async () => {
    await request(audit)
      .get(`/api/v1/events?actor=${encodeURIComponent(EMAIL)}&limit=2`)
      .set('Authorization', `Bearer ${AUDITOR}`)
      .expect(200);
    await request(audit).get(`/api/v1/events?stream=x&actor=${EMAIL}`).expect(401);
    await request(moduleApp).get(`/api/v1/requests?nonsense=${EMAIL}`);
    expect(logged()).toContain('actor=[24 chars]&limit=2');
    expect(logged()).not.toContain('quorlane');
  });

  it('keeps the values that only cut a list: paging, positions, sorting, numeric ids', () => {
    expect(loggedUrl('/api/v1/leave?employee_id=42&sort=-from_date&offset=10&after=7')).toBe(
      '/api/v1/leave?employee_id=42&sort=-from_date&offset=10&after=7',
    );
    expect(loggedUrl('/api/v1/leave?employee_id=Ana+Example&q=caf%C3%A9')).toBe(
      '/api/v1/leave?employee_id=[11 chars]&q=[4 chars]',
    );
    expect(loggedUrl('/api/v1/x?q=%E0%A4%A')).toBe('/api/v1/x?q=[8 chars]');
  });
});
