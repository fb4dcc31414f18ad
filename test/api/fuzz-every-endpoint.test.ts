import fc from 'fast-check';
import request from 'supertest';
import type { RequestListener } from 'node:http';
import { createModuleApp } from '../../src/api/kit/app';
import { describeModule } from '../../src/api/kit/openapi';
import { MODULES } from '../../src/api/modules';
import { openModule, TOKEN, type ModuleHarness } from '../support/module-harness';

/**
 * Property-based fuzzing of every endpoint of every module, driven by the module's own OpenAPI
 * description: any path parameter, query, header and body gives an answer or a well-formed error,
 * never a 5xx and never a stack trace.
 */

const SESSION_SECRET = 'fuzzing-session-secret-0123456789abcdef';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
}

interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  parameters: Parameter[];
  hasBody: boolean;
}

function operationsOf(module: (typeof MODULES)[number]): Operation[] {
  const paths = (describeModule(module).runtime as { paths: Record<string, Record<string, unknown>> }).paths;
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const described = operation as { parameters?: Parameter[]; requestBody?: unknown };
      return {
        method: method as Operation['method'],
        path,
        parameters: described.parameters ?? [],
        hasBody: described.requestBody !== undefined,
      };
    }),
  );
}

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    '-1',
    '0',
    '1',
    '2',
    '201',
    '1.5',
    '%',
    '%ZZ',
    '"',
    "'",
    '9'.repeat(30),
    'null',
    'ws-acme',
  ),
);
const headerValue = fc.stringMatching(/^[\x21-\x7e]{0,40}$/);

/** An answer is never a 5xx, and every error is in the error envelope or the 422 `detail` shape. */
function expectWellFormed(response: request.Response, label: string): void {
  if (response.status >= 500) throw new Error(`${label}: ${response.status} ${response.text.slice(0, 300)}`);
  expect(response.text).not.toMatch(/at .*\.(ts|js):\d+/);
  if (response.status < 400) return;
  if (response.status === 422 && response.body.detail) {
    for (const detail of response.body.detail)
      expect(detail).toMatchObject({ loc: expect.any(Array), msg: expect.any(String) });
    return;
  }
  expect(response.body).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
}

describe.each(MODULES.map((module) => [module.id, module] as const))(
  'fuzzing every %s endpoint',
  (_id, module) => {
    let harness: ModuleHarness<undefined>;
    let app: RequestListener;
    beforeAll(async () => {
      harness = await openModule(module);
      // Fully configured, as a deployment is: every 5xx is then a defect.
      app = createModuleApp(module, harness.suite, { apiToken: TOKEN, sessionSecret: SESSION_SECRET });
    });
    afterAll(() => harness.close());

    it.each(
      operationsOf(module).map(
        (operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation] as const,
      ),
    )('%s: any input gives an answer or a well-formed error', async (label, operation) => {
      const byPlace = (place: Parameter['in']) =>
        operation.parameters.filter((parameter) => parameter.in === place).map((parameter) => parameter.name);
      const queryNames = [...byPlace('query'), 'limit', 'offset', 'x'];
      // X-Min-Position is left out: a position the log has not reached is answered 503 `not_caught_up`
      // after a wait, as described (test/api/min-position.test.ts).
      const headerNames = byPlace('header').filter((name) => name !== 'X-Min-Position');
      await fc.assert(
        fc.asyncProperty(
          fc.array(text, { minLength: 4, maxLength: 4 }),
          fc.dictionary(fc.constantFrom(...queryNames), text),
          fc.dictionary(fc.constantFrom('Idempotency-Key', 'X-Request-Id', ...headerNames), headerValue),
          fc.constantFrom('none', 'valid', 'wrong'),
          fc.option(fc.jsonValue({ maxDepth: 3 })),
          async (segments, query, headers, auth, body) => {
            let index = 0;
            const path = operation.path.replace(/\{\w+\}/g, () =>
              encodeURIComponent(segments[index++] ?? ''),
            );
            let call = request(app)[operation.method](path).query(query).timeout(10_000);
            for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
            if (auth !== 'none')
              call = call.set('Authorization', `Bearer ${auth === 'valid' ? TOKEN : 'wrong'}`);
            if (auth === 'valid') call = call.set('Cookie', 'svc_session=forged.value');
            if (operation.hasBody && body !== null) {
              call = call.set('Content-Type', 'application/json').send(JSON.stringify(body));
            }
            expectWellFormed(await call, label);
          },
        ),
        { numRuns: 25 },
      );
    });
  },
);
