import request from 'supertest';
import { createModuleApp } from '../../src/api/kit/app';
import type { ModuleDefinition } from '../../src/api/kit/module';
import { describeModule } from '../../src/api/kit/openapi';
import { clmModule } from '../../src/api/clm';
import { marketModule } from '../../src/api/market';
import { MODULES } from '../../src/api/modules';
import { cookieFor, SECRET } from '../support/market-fixtures';
import { openModule, TOKEN, type ModuleHarness } from '../support/module-harness';
import { expectEnvelope, SERVICE_PATHS } from './spec';

/** SUITE_READS=token, or the default (public reads). */
const appFor = (module: ModuleDefinition, harness: ModuleHarness<unknown>, reads: 'public' | 'token') =>
  createModuleApp(module, harness.suite, { apiToken: TOKEN, sessionSecret: SECRET, reads });

type Paths = Record<string, { get?: { security?: unknown } }>;

/** Every GET of a module's data, with `1` for path parameters. */
function dataReads(module: ModuleDefinition): string[] {
  const { paths } = describeModule(module).runtime as { paths: Paths };
  return Object.keys(paths)
    .filter((path) => paths[path]?.get && !SERVICE_PATHS.includes(path))
    .map((path) => path.replace(/\{\w+\}/g, '1'));
}

const PUBLIC_READ_MODULES = MODULES.filter((module) => !module.access);

it('covers the eight modules whose reads are public by default', () => {
  expect(PUBLIC_READ_MODULES.map((module) => module.id).sort()).toEqual(
    ['cms', 'crm', 'esm', 'fpa', 'hrm', 'lms', 'mail', 'ppm'].sort(),
  );
});

describe.each(PUBLIC_READ_MODULES.map((module) => [module.id, module] as const))(
  'SUITE_READS=token on the %s port',
  (_id, module) => {
    let harness: ModuleHarness<undefined>;
    beforeAll(async () => {
      harness = await openModule(module);
    });
    afterAll(() => harness.close());

    it('answers 401 to every anonymous read and serves it with the token; public reads stay open by default', async () => {
      const closed = appFor(module, harness, 'token');
      const open = appFor(module, harness, 'public');
      for (const path of dataReads(module)) {
        const anonymous = await request(closed).get(path);
        expectEnvelope(anonymous, 401, 'unauthorized');
        expect(anonymous.headers['www-authenticate']).toBe('Bearer');
        const wrong = await request(closed).get(path).set('Authorization', 'Bearer wrong-token-0123456789');
        expectEnvelope(wrong, 401, 'unauthorized');
        const withToken = await request(closed).get(path).set('Authorization', `Bearer ${TOKEN}`);
        // As by default with the same credential (a route may need one even there: a request's notes).
        const asByDefault = await request(open).get(path).set('Authorization', `Bearer ${TOKEN}`);
        expect([path, withToken.status]).toEqual([path, asByDefault.status]);
      }
      expect((await request(open).get(dataReads(module)[0] as string)).status).toBe(200);
    });

    it('says so in its description: every read takes the bearer token', async () => {
      const { paths } = (await request(appFor(module, harness, 'token')).get('/api/openapi.json')).body as {
        paths: Paths;
      };
      for (const [path, operations] of Object.entries(paths)) {
        if (!operations.get || SERVICE_PATHS.includes(path)) continue;
        expect([path, operations.get.security]).toEqual([path, [{ bearerAuth: [] }]]);
      }
    });
  },
);

describe('SUITE_READS=token leaves the private modules as they are', () => {
  it('contracts: the token and the workspace header, as before', async () => {
    const harness = await openModule(clmModule);
    try {
      for (const reads of ['public', 'token'] as const) {
        const app = appFor(clmModule, harness, reads);
        expectEnvelope(await request(app).get('/api/v1/workspaces'), 401, 'unauthorized');
        const res = await request(app).get('/api/v1/workspaces').set('Authorization', `Bearer ${TOKEN}`);
        expectEnvelope(res, 400, 'missing_header');
      }
    } finally {
      await harness.close();
    }
  });

  it('market: the session cookie or a bearer credential, as before; nothing opens it anonymously', async () => {
    const harness = await openModule(marketModule);
    try {
      for (const reads of ['public', 'token'] as const) {
        const app = appFor(marketModule, harness, reads);
        expectEnvelope(await request(app).get('/api/threads'), 401, 'unauthorized');
        await request(app).get('/api/threads').set('Authorization', `Bearer ${TOKEN}`).expect(200);
        await request(app).get('/api/threads').set('Cookie', cookieFor('alice')).expect(200);
      }
    } finally {
      await harness.close();
    }
  });
});
