import { createServer, request as httpRequest, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { createModuleApp } from '../../src/api/kit/app';
import { createAuthThrottle, type AuthThrottle } from '../../src/api/kit/auth-throttle';
import { describeModule } from '../../src/api/kit/openapi';
import { esmModule } from '../../src/api/esm';
import { MODULES } from '../../src/api/modules';
import { openEsm, SERVER_SECRET, TOKEN, type EsmHarness } from '../support/esm-harness';
import { openModule } from '../support/module-harness';
import { expectEnvelope, SERVICE_PATHS, validRequest } from './spec';

/** Three failures at once, then one every 20 s. */
const BUDGET = { capacity: 3, refillPerSecond: 3 / 60 };
const AUDITOR = 'auditor-token-0123456789';

interface Sent {
  method?: string;
  path: string;
  token?: string;
  from?: string;
  body?: object;
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  code: string | undefined;
}

/** A request from a chosen client address: the whole of 127.0.0.0/8 is this machine. */
function send(
  server: Server,
  { method = 'GET', path, token, from = '127.0.0.1', body }: Sent,
): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, localAddress: from }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const retryAfter = res.headers['retry-after'];
        const code = text.startsWith('{"error"') ? JSON.parse(text).error.code : undefined;
        resolve({ status: res.statusCode ?? 0, retryAfter, code });
      });
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const servers: Server[] = [];
const serve = (app: RequestListener): Promise<Server> =>
  new Promise((resolve) => {
    const server = createServer(app).listen(0, '127.0.0.1', () => resolve(server));
    servers.push(server);
  });

let h: EsmHarness;
let now: number;
let throttle: AuthThrottle;
let esm: Server;
beforeEach(async () => {
  h = await openEsm();
  now = Date.now();
  throttle = createAuthThrottle(BUDGET, () => now);
  esm = await serve(
    createModuleApp(esmModule, h.suite, {
      apiToken: TOKEN,
      sessionSecret: SERVER_SECRET,
      authThrottle: throttle,
    }),
  );
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  await h.close();
});

const write = (token?: string, from?: string): Sent => ({
  method: 'POST',
  path: '/api/v1/requests',
  token,
  from,
  body: validRequest,
});

describe('failed authentication is throttled per client address', () => {
  it('answers 429 with Retry-After once an address has spent its failures, whatever it sends then', async () => {
    for (let attempt = 0; attempt < 5; attempt++) expect((await send(esm, write(TOKEN))).status).toBe(201);
    const written = await h.suite.eventStore.headPosition();
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await send(esm, write('wrong-token-0123456789'))).toMatchObject({ status: 401 });
    }
    expect(await send(esm, write('wrong-token-0123456789'))).toEqual({
      status: 429,
      retryAfter: '20',
      code: 'rate_limited',
    });
    expect(await send(esm, write())).toMatchObject({ status: 429, code: 'rate_limited' });
    // The right token is refused too: a guess that happens to be right looks like a wrong one.
    expect(await send(esm, write(TOKEN))).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(await h.suite.eventStore.headPosition()).toBe(written);
  });

  it('answers 401 to a request that presents no credential without counting it: it tried nothing', async () => {
    for (let attempt = 0; attempt < 10; attempt++) expect((await send(esm, write())).status).toBe(401);
    expect((await send(esm, write(TOKEN))).status).toBe(201);
  });

  it('leaves other addresses and public reads alone, and gives the budget back with time', async () => {
    for (let attempt = 0; attempt < 4; attempt++) await send(esm, write('wrong-token-0123456789'));
    expect((await send(esm, write(TOKEN))).status).toBe(429);
    expect((await send(esm, write(TOKEN, '127.0.0.2'))).status).toBe(201);
    expect((await send(esm, { path: '/api/v1/requests' })).status).toBe(200);

    now += 20_000;
    expect((await send(esm, write(TOKEN))).status).toBe(201);
    expect((await send(esm, write('wrong-token-0123456789'))).status).toBe(401);
    expect((await send(esm, write('wrong-token-0123456789'))).status).toBe(429);
  });

  it('shares one budget between the module ports and the audit port, which it throttles too', async () => {
    const audit = await serve(createAuditApp(h.suite, AUDITOR, throttle));
    const events = (token?: string, from?: string): Sent => ({ path: '/api/v1/events', token, from });
    expect((await send(esm, write('wrong-token-0123456789'))).status).toBe(401);
    expect((await send(audit, events('wrong-auditor-0123456789'))).status).toBe(401);
    expect((await send(esm, write('another-wrong-token-0123'))).status).toBe(401);

    expect(await send(audit, events('wrong-auditor-0123456789'))).toEqual({
      status: 429,
      retryAfter: '20',
      code: 'rate_limited',
    });
    expect((await send(audit, events(AUDITOR))).status).toBe(429);
    expect((await send(audit, events(AUDITOR, '127.0.0.2'))).status).toBe(200);
    expect((await send(audit, { path: '/api/v1/health' })).status).toBe(200);
  });
});

/** The first data endpoint a module reads with GET and no path parameter. */
function dataEndpoint(module: (typeof MODULES)[number]): string {
  const paths = (describeModule(module).runtime as { paths: Record<string, { get?: object }> }).paths;
  return Object.keys(paths).find(
    (path) => paths[path]?.get && !path.includes('{') && !SERVICE_PATHS.includes(path),
  ) as string;
}

describe.each(MODULES.map((module) => [module.id, module] as const))(
  'the credential check of the %s port',
  (_id, module) => {
    it('answers 429 rate_limited with Retry-After after the failed attempts of the budget', async () => {
      const harness = await openModule(module);
      try {
        // With SUITE_READS=token every module's reads check a credential: its token, or its own check.
        const app = createModuleApp(module, harness.suite, {
          apiToken: TOKEN,
          sessionSecret: SERVER_SECRET,
          reads: 'token',
          authThrottle: createAuthThrottle(BUDGET),
        });
        const path = dataEndpoint(module);
        const attempt = () => request(app).get(path).set('Authorization', 'Bearer wrong-token-0123456789');
        for (let failure = 0; failure < 3; failure++) expectEnvelope(await attempt(), 401, 'unauthorized');
        const limited = await attempt();
        expectEnvelope(limited, 429, 'rate_limited');
        expect(limited.headers['retry-after']).toBe('20');
      } finally {
        await harness.close();
      }
    });
  },
);
