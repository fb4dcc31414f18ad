import type { RequestListener } from 'node:http';
import request from 'supertest';
import { createModuleApp } from '../../src/api/kit/app';
import { describeModule } from '../../src/api/kit/openapi';
import { MODULES } from '../../src/api/modules';
import { openModule, SERVER_SECRET, TOKEN, type ModuleHarness } from '../support/module-harness';

/**
 * The write matrix of every module with public reads and bearer-token writes: each write, times no
 * token configured, no credentials, a wrong token and the valid token. (The contract module's
 * workspace and actor matrix is in clm-access.test.ts, the market's sessions in market-sessions.test.ts.)
 */

const bearerModules = MODULES.filter((module) => !module.access);

function writesOf(module: (typeof MODULES)[number]) {
  const paths = (describeModule(module).runtime as { paths: Record<string, Record<string, unknown>> }).paths;
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((method) => method !== 'get')
      .map((method) => ({ method: method as 'post' | 'patch', path: path.replace(/\{\w+\}/g, '1') })),
  );
}

describe.each(bearerModules.filter((module) => writesOf(module).length > 0).map((m) => [m.id, m] as const))(
  'auth matrix of the %s writes',
  (_id, module) => {
    let harness: ModuleHarness<undefined>;
    let unconfigured: RequestListener;
    beforeAll(async () => {
      harness = await openModule(module);
      unconfigured = createModuleApp(module, harness.suite, {
        apiToken: undefined,
        sessionSecret: SERVER_SECRET,
      });
    });
    afterAll(() => harness.close());

    const send = (
      app: RequestListener,
      write: { method: 'post' | 'patch'; path: string },
      token?: string,
    ) => {
      const call = request(app)[write.method](write.path).set('Content-Type', 'application/json');
      return (token === undefined ? call : call.set('Authorization', `Bearer ${token}`)).send('{}');
    };

    it.each(writesOf(module).map((write) => [`${write.method.toUpperCase()} ${write.path}`, write] as const))(
      '%s',
      async (_label, write) => {
        const disabled = await send(unconfigured, write, TOKEN);
        expect([disabled.status, disabled.body.error?.code]).toEqual([503, 'writes_disabled']);
        const anonymous = await send(harness.app, write);
        expect([anonymous.status, anonymous.body.error?.code]).toEqual([401, 'unauthorized']);
        const wrong = await send(harness.app, write, `${TOKEN}-wrong`);
        expect([wrong.status, wrong.body.error?.code]).toEqual([401, 'unauthorized']);
        // The valid token passes authentication: what is left to answer is the payload or the record.
        const valid = await send(harness.app, write, TOKEN);
        expect([401, 403, 503]).not.toContain(valid.status);
        expect([404, 409, 422]).toContain(valid.status);
        expect(await harness.suite.eventStore.headPosition()).toBe(0);
      },
    );
  },
);
