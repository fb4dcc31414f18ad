import type { RequestListener } from 'node:http';
import request from 'supertest';
import { createAuditApp, describeAudit } from '../../src/api/audit';
import { createModuleApp, moduleAsServed } from '../../src/api/kit/app';
import { createLogger } from '../../src/api/kit/logging';
import { metricsHandler } from '../../src/api/kit/metrics-port';
import type { ModuleSettings } from '../../src/api/kit/module';
import { describeModule } from '../../src/api/kit/openapi';
import { MODULES } from '../../src/api/modules';
import { loadConfig } from '../../src/config';
import { openSuite, type Suite } from '../../src/main';
import { answerChecker, type OpenApiDocument, type OperationObject } from '../support/openapi-answers';
import { tempDir } from '../support/temp-dir';

/**
 * Query parameters are never ignored (issue 53): every operation of every API, as its own description
 * names it, refuses a query parameter it does not take and a single one given twice, with an answer
 * its description names, naming the parameter. The check comes before access checks and path lookups,
 * so that no credential, record or body is needed to see it.
 */

const SETTINGS: ModuleSettings = { apiToken: 'query-parameters-token', sessionSecret: 'x'.repeat(32) };
const AUDIT_TOKEN = 'query-parameters-audit';
const METHODS = ['get', 'post', 'patch', 'delete'] as const;
const UNKNOWN = 'not_a_parameter';

const descriptions: [string, OpenApiDocument][] = [
  ...MODULES.map(
    (module) =>
      [module.id, describeModule(moduleAsServed(module, SETTINGS)).runtime as OpenApiDocument] as [
        string,
        OpenApiDocument,
      ],
  ),
  ['audit', describeAudit().runtime as OpenApiDocument],
];

interface Operation {
  path: string;
  method: (typeof METHODS)[number];
  operation: OperationObject;
}

const operationsOf = (document: OpenApiDocument): Operation[] =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      path,
      method,
      operation: item[method] as OperationObject,
    })),
  );

const queryParameters = (operation: OperationObject) =>
  (operation.parameters ?? []).filter((parameter) => parameter.in === 'query');

/** Its parameter errors take the service desk's `{"detail": [...]}` shape, as described. */
const answersDetail = (operation: OperationObject) =>
  (operation.responses['422']?.content?.['application/json']?.schema as { $ref?: string } | undefined)
    ?.$ref === '#/components/schemas/ValidationError';

let suite: Suite;
let cleanup: () => void;
const apps = new Map<string, RequestListener>();

beforeAll(async () => {
  const dir = tempDir();
  cleanup = dir.cleanup;
  const config = loadConfig({ SUITE_DATA_DIR: dir.dir, SUITE_SEED: 'none', SUITE_LOG_LEVEL: 'silent' });
  suite = await openSuite(config, { logger: createLogger('silent') });
  for (const module of suite.modules) apps.set(module.id, createModuleApp(module, suite, SETTINGS));
  apps.set('audit', createAuditApp(suite, AUDIT_TOKEN));
});

afterAll(async () => {
  await suite.close();
  cleanup();
});

/** The path with each of its parameters filled in: the refusal comes before any lookup. */
const concrete = (path: string) => path.replace(/\{\w+\}/g, '1');

describe.each(descriptions)('every operation of the %s API', (api, document) => {
  const check = answerChecker(document);

  async function refusal(
    { path, method, operation }: Operation,
    query: string,
    parameter: string,
    code: 'unknown_parameter' | 'repeated_parameter',
  ) {
    const response = await request(apps.get(api) as RequestListener)[method](`${concrete(path)}?${query}`);
    const answer = { status: response.status, mediaType: 'application/json', body: response.body as unknown };
    expect(check(path, method, answer)).toEqual([]);
    if (answersDetail(operation)) {
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        detail: [
          {
            loc: ['query', parameter],
            msg: expect.any(String),
            type: code === 'unknown_parameter' ? 'extra_forbidden' : 'repeated_parameter',
          },
        ],
      });
    } else {
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code, details: { parameter } });
      expect(response.body.error.message).toContain(parameter);
      // What it says it takes is what its description says it takes.
      expect([...(response.body.error.details.allowed as string[])].sort()).toEqual(
        queryParameters(operation)
          .map(({ name }) => name)
          .sort(),
      );
    }
  }

  const operations = operationsOf(document);
  it.each(operations.map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation]))(
    '%s refuses a parameter it does not take',
    (_label, operation) => refusal(operation as Operation, `${UNKNOWN}=1`, UNKNOWN, 'unknown_parameter'),
  );

  const withSingles = operations.flatMap((operation) => {
    const single = queryParameters(operation.operation).find(
      (parameter) => parameter.schema?.type !== 'array',
    );
    return single ? [[`${operation.method.toUpperCase()} ${operation.path}`, operation, single.name]] : [];
  });
  if (withSingles.length > 0) {
    it.each(withSingles)('%s refuses a parameter it takes once, given twice', (_label, operation, name) =>
      refusal(
        operation as Operation,
        `${String(name)}=1&${String(name)}=2`,
        String(name),
        'repeated_parameter',
      ),
    );
  }
});

describe('which answer a refused parameter gets', () => {
  it('the service desk answers its reads as its interface specifies (422 detail), and its writes 400', async () => {
    const esm = apps.get('esm') as RequestListener;
    const read = await request(esm).get('/api/v1/requests?foo=1');
    expect(read.status).toBe(422);
    expect(read.body).toEqual({
      detail: [{ loc: ['query', 'foo'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }],
    });
    const write = await request(esm).post('/api/v1/requests?foo=1').send({ title: 'x' });
    expect(write.status).toBe(400);
    expect(write.body.error).toMatchObject({
      code: 'unknown_parameter',
      details: { parameter: 'foo', allowed: [] },
    });
  });

  it('the other modules and the audit API answer 400 in the error envelope', async () => {
    const hrm = await request(apps.get('hrm') as RequestListener).get('/api/v1/employees?limit=1&limit=2');
    expect(hrm.status).toBe(400);
    expect(hrm.body).toEqual({
      error: {
        code: 'repeated_parameter',
        message: 'Query parameter given more than once: limit takes one value',
        details: { parameter: 'limit', allowed: expect.arrayContaining(['limit', 'offset', 'q']) },
      },
    });
    const audit = await request(apps.get('audit') as RequestListener)
      .get('/api/v1/events?foo=1')
      .set('Authorization', `Bearer ${AUDIT_TOKEN}`);
    expect(audit.status).toBe(400);
    expect(audit.body.error).toMatchObject({
      code: 'unknown_parameter',
      message: 'Unknown query parameter: foo',
      details: { parameter: 'foo', allowed: expect.arrayContaining(['after', 'module', 'type', 'stream']) },
    });
  });

  it('a parameter declared by a read is taken, as it was', async () => {
    const esm = apps.get('esm') as RequestListener;
    expect((await request(esm).get('/api/v1/requests?limit=1&offset=0&q=vpn')).status).toBe(200);
    expect((await request(esm).get('/api/v1/requests')).status).toBe(200);
  });

  it('the descriptions, the licence, health and the probes take no parameter', async () => {
    for (const path of [
      '/api/openapi.json',
      '/swagger.json',
      '/api/license',
      '/api/',
      '/api/v1/health',
      '/livez',
      '/readyz',
    ]) {
      const response = await request(apps.get('crm') as RequestListener).get(`${path}?v=2`);
      expect([path, response.status, response.body.error?.code]).toEqual([path, 400, 'unknown_parameter']);
    }
  });

  it('the documentation page is a page: its query string is left alone', async () => {
    const response = await request(apps.get('crm') as RequestListener).get('/api/docs/?v=2');
    expect(response.status).toBe(200);
  });

  it('the metrics port refuses parameters on /metrics and /health', async () => {
    const metrics = metricsHandler(suite.metrics, suite.readiness, 'api');
    expect((await request(metrics).get('/metrics')).status).toBe(200);
    for (const path of ['/metrics', '/health', '/livez']) {
      const response = await request(metrics).get(`${path}?x=1&x=2`);
      expect([path, response.status, response.body.error?.code]).toEqual([path, 400, 'unknown_parameter']);
    }
  });
});
