import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import SwaggerClient, { type Client } from 'swagger-client';
import { esmModule } from '../../src/api/esm';
import { MODULE_IDS } from '../../src/modules/ids';
import { requireApproval } from '../../src/approvals/policies';
import { createSeedContext } from '../../src/seed/context';
import { signSession } from '../../src/market/session';
import { clmCollections } from '../../src/events/clm';
import {
  API_TOKEN,
  AUDIT_TOKEN,
  ROLELESS_TOKEN,
  SESSION_SECRET,
  startContractSuite,
  type ContractSuite,
  type Deployment,
} from '../support/contract-suite';
import {
  answerChecker,
  type Answer,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  type Schema,
} from '../support/openapi-answers';
import { tempDir } from '../support/temp-dir';

/**
 * The suite answers what it describes (issue 33). The whole suite runs on the demo data; every GET
 * operation that the APIs' own descriptions name is called through a generic OpenAPI client by its
 * operationId (lists with several parameter sets, by-id reads, and each documented error it can be
 * made to answer), and every answer is validated with Ajv against both forms of the description.
 */

jest.setTimeout(240_000);

const APIS = [...MODULE_IDS, 'audit'] as const;
type Api = (typeof APIS)[number];
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Where the values of a path parameter come from when no list sits at its parent path. */
const PATH_VALUES: Record<string, Record<string, unknown>[] | { listedAt: string }> = {
  'fpa /api/v1/statements/{scenario}': { listedAt: '/api/v1/scenarios' },
  'fpa /api/v1/recurring/{scenario}': { listedAt: '/api/v1/scenarios' },
  'audit /api/v1/history/{module}/{resource}/{id}': [
    { module: 'esm', resource: 'requests', id: 1 },
    { module: 'hrm', resource: 'leave', id: 2 },
    { module: 'clm', resource: 'contracts', id: 'ct-acme-msa' },
  ],
  'audit /api/v1/evidence/records/{module}/{resource}/{id}': [
    { module: 'esm', resource: 'requests', id: 1 },
    { module: 'hrm', resource: 'leave', id: 2 },
  ],
};

/**
 * Documented errors no request of this test can bring about, and why: a market session holds no
 * role, so its proposal reads answer 403 before looking; a checkpoint is signed before any request;
 * a suite that serves is ready until a store fails or its read models lag (test/unit/readiness.test.ts).
 */
const UNPROVOKED = [/^market_getProposal 404$/, /^audit_getCheckpoint 404$/, /^\w+_getReadiness 503$/];

/**
 * Operations that have nothing to answer 200 with on the demo data: only the service desk holds a
 * proposal (made before the test), a market session may not read proposals, and nobody was erased.
 */
const NOTHING_TO_READ = [
  ...APIS.filter((api) => api !== 'esm' && api !== 'audit').map((api) => `${api}_getProposal`),
  'market_listProposals',
  'audit_getErasure',
];

/** What Redocly's recommended rules may say: the trailing slash of `GET /api/`, which the specification names. */
const ALLOWED_BY_LINT = ['no-path-trailing-slash #/paths/~1api~1'];

/** A query no client made from a description sends: a percent escape that is not UTF-8. */
const MALFORMED_QUERY = 'q=%FF';

type Credentials = 'valid' | 'none' | 'wrong' | 'roleless';

interface Operation {
  api: Api;
  path: string;
  method: string;
  id: string;
  runtime: OperationObject;
  parameters: ParameterObject[];
}

interface Call {
  parameters: Record<string, unknown>;
  credentials?: Credentials;
  deployment?: Deployment;
  /** Sent twice, the second answer kept: a throttle's 429 follows a failed authentication. */
  twice?: boolean;
  /** Sent with MALFORMED_QUERY added to its URL. */
  malformed?: boolean;
}

let contract: ContractSuite;
const outcomes = new Map<Api, Promise<Outcome>>();
let sessionCookie: string;
let workspace: string;
const described = {} as Record<Api, { runtime: OpenApiDocument; compatibility: OpenApiDocument }>;

async function json<T>(url: string): Promise<T> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** A thread of the market assistant for the session's user, so that its reads answer one. */
async function askTheAssistant() {
  const response = await fetch(`${contract.base.configured.market}/api/assistant/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `svc_session=${sessionCookie}` },
    body: JSON.stringify({
      question: 'Median price of dental implants',
      country: 'DE',
      workspace: 'pricing',
    }),
  });
  expect(response.status).toBe(200);
  await response.text();
}

/** A service request held back for approval, so that the service desk's proposal reads answer one. */
async function holdBackARequest() {
  const { commands } = createSeedContext(contract.suite.eventStore, contract.suite.ids, 'contract-policy');
  const { outcome } = await requireApproval(commands, esmModule, 'POST /api/v1/requests', 'esm:approver');
  await contract.suite.runtime.waitFor(outcome.events[outcome.events.length - 1]?.position ?? 0);
  const response = await fetch(`${contract.base.configured.esm}/api/v1/requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${API_TOKEN}` },
    body: JSON.stringify({ title: 'A second screen', status: 'Open', priority: 'Low' }),
  });
  expect(response.status).toBe(202);
}

/** A webhook on every module, so that their webhook reads answer one (its deliveries fail, in a queue of their own). */
async function registerWebhooks() {
  for (const module of MODULE_IDS) {
    const response = await fetch(`${contract.base.configured[module]}/api/v1/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${API_TOKEN}` },
      body: JSON.stringify({ url: 'https://93.184.215.14/hooks' }),
    });
    expect(response.status).toBe(201);
  }
}

beforeAll(async () => {
  contract = await startContractSuite();
  const expires = new Date(Date.now() + 3_600_000);
  sessionCookie = signSession(SESSION_SECRET, 'contract-user', expires, 'c0ffee'.padEnd(32, '0'));
  const workspaces = await contract.suite.readStore.find(clmCollections.workspaces, { limit: 1, offset: 0 });
  workspace = (JSON.parse(workspaces.items[0] as string) as { id: string }).id;
  for (const api of APIS) {
    const base = contract.base.configured[api];
    described[api] = {
      runtime: await json(`${base}/api/openapi.json`),
      compatibility: await json(`${base}/swagger.json`),
    };
  }
  await askTheAssistant();
  await holdBackARequest();
  await registerWebhooks();
  // Every API at once: the reads that wait for the read models (X-Min-Position) wait together.
  for (const api of APIS) {
    outcomes.set(
      api,
      contractOf(api).catch((error: unknown) => ({ problems: [String(error)], provoked: new Set<string>() })),
    );
  }
});

afterAll(() => contract?.stop());

function operationsOf(api: Api): Operation[] {
  const { paths } = described[api].runtime;
  return Object.entries(paths).flatMap(([route, item]) =>
    METHODS.flatMap((method) => {
      const runtime = item[method];
      if (!runtime) return [];
      const id = runtime.operationId ?? `${method.toUpperCase()} ${route}`;
      return [{ api, path: route, method, id, runtime, parameters: runtime.parameters ?? [] }];
    }),
  );
}

/* ---------------------------------------------------------------- calling an operation */

const clients = new Map<string, Promise<Client>>();

function authorizations(credentials: Credentials): Record<string, { value: string }> {
  if (credentials === 'none') return {};
  const token = { valid: API_TOKEN, wrong: 'not-a-credential', roleless: ROLELESS_TOKEN }[credentials];
  const auditor = credentials === 'valid' ? AUDIT_TOKEN : token;
  const cookie = { valid: sessionCookie, wrong: 'forged.session', roleless: sessionCookie }[credentials];
  return {
    bearerAuth: { value: token },
    auditorAuth: { value: auditor },
    sessionCookie: { value: cookie },
  };
}

/** By its operationId; an operation without one (which the first test reports) by its path and method. */
const calledBy = ({ runtime, path: pathName, method }: Operation) =>
  runtime.operationId ? { operationId: runtime.operationId } : { pathName, method };

/** A client made from the API's `/swagger.json`, as an integrator's tool would make it. */
function clientOf(api: Api): Promise<Client> {
  let client = clients.get(api);
  if (!client) {
    client = new SwaggerClient({
      // A copy: the client resolves the description it is given in place.
      spec: structuredClone(described[api].compatibility),
      url: `${contract.base.configured[api]}/swagger.json`,
    });
    clients.set(api, client);
  }
  return client;
}

/** How a call reaches its deployment with its credentials, by operationId. */
const callOptions = (operation: Operation, call: Required<Call>) => ({
  ...calledBy(operation),
  parameters: call.parameters,
  contextUrl: `${contract.base[call.deployment][operation.api]}/swagger.json`,
  securities: { authorized: authorizations(call.credentials) },
});

function answerOf(status: number, contentType: string | undefined, text: string | undefined): Answer {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (text === undefined) return { status, mediaType, body: undefined };
  if (text === '') return { status, mediaType: '', body: undefined };
  const isJson = mediaType === 'application/json' || mediaType.endsWith('+json');
  return { status, mediaType, body: isJson ? (JSON.parse(text) as unknown) : text };
}

const streams = (operation: Operation) =>
  'text/event-stream' in (operation.runtime.responses['200']?.content ?? {});

/** A URL with MALFORMED_QUERY added to its query. */
const malformed = (url: string) => `${url}${url.includes('?') ? '&' : '?'}${MALFORMED_QUERY}`;

/**
 * The request the client builds, sent by fetch: an event stream, answered headers first (they are
 * checked, and the stream is closed), or a URL the client would not send.
 */
async function fetched(operation: Operation, call: Required<Call>): Promise<Answer> {
  const client = await clientOf(operation.api);
  const request = SwaggerClient.buildRequest({ spec: client.spec, ...callOptions(operation, call) });
  const aborted = new AbortController();
  const url = call.malformed ? malformed(request.url) : request.url;
  const response = await fetch(url, { headers: request.headers, signal: aborted.signal });
  const contentType = response.headers.get('content-type') ?? undefined;
  const text = response.status === 200 && streams(operation) ? undefined : await response.text();
  aborted.abort();
  return answerOf(response.status, contentType, text);
}

async function send(operation: Operation, call: Required<Call>): Promise<Answer> {
  if (streams(operation) || call.malformed) return fetched(operation, call);
  const client = await clientOf(operation.api);
  try {
    const response = await client.execute(callOptions(operation, call));
    return answerOf(response.status, response.headers['content-type'], response.text);
  } catch (error) {
    const { response } = error as {
      response?: { status: number; headers: Record<string, string>; text: string };
    };
    if (!response) throw error;
    return answerOf(response.status, response.headers['content-type'], response.text);
  }
}

/* ---------------------------------------------------------------- the values a call takes */

const typeOf = (parameter: ParameterObject) => {
  const { type } = parameter.schema ?? {};
  return Array.isArray(type) ? type.find((candidate) => candidate !== 'null') : type;
};

/** Some words records hold, to search for. */
const wordsOf = (records: readonly Record<string, unknown>[]) =>
  records
    .flatMap((record) => Object.values(record))
    .filter((value): value is string => typeof value === 'string' && /^[A-Za-z]{4,}/.test(value))
    .slice(0, 2)
    .map((value) => value.slice(0, 4));

/** How many values of an enum a list is called with: a market code or a treatment code has dozens. */
const ENUM_VALUES = 3;

/** Values worth sending for a parameter: its enum, both booleans, or values the records hold. */
function valuesOf(parameter: ParameterObject, records: readonly Record<string, unknown>[]): unknown[] {
  const schema = parameter.schema ?? {};
  // A list parameter: each value an item's, as a list of one.
  if (typeOf(parameter) === 'array') {
    const items = { ...parameter, schema: (schema.items ?? {}) as Schema };
    return valuesOf(items, records).map((value) => [value]);
  }
  if (schema.enum) return schema.enum.filter((value) => value !== null).slice(0, ENUM_VALUES);
  const type = typeOf(parameter);
  if (type === 'boolean') return [true, false];
  if (parameter.name === 'limit') return [1, schema.maximum ?? 100];
  if (parameter.name === 'offset') return [1];
  if (parameter.name === 'q') return wordsOf(records);
  const held = records
    .map((record) => record[parameter.name])
    .filter((value) => ['string', 'number', 'boolean'].includes(typeof value));
  if (held.length > 0) return [...new Set(held)].slice(0, 2);
  if (type === 'integer' || type === 'number') return [schema.minimum ?? 1];
  if (schema.format === 'date') return ['2026-01-01'];
  return [];
}

/** The records a list answers (`data`), or the answer itself when it is a record. */
function recordsOf(answer: Answer): Record<string, unknown>[] {
  const body = answer.body as { data?: unknown } | undefined;
  if (answer.status !== 200 || typeof body !== 'object' || body === null) return [];
  const data = Array.isArray(body.data) ? body.data : [];
  return data.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null);
}

/* ---------------------------------------------------------------- errors to bring about */

/** A value of a parameter that names no record: the largest it may be, or a name nothing has. */
const missing = (parameter: ParameterObject) =>
  typeOf(parameter) === 'integer' ? (parameter.schema?.maximum ?? 2_147_483_000) : 'no-such-record';

/** Calls that should bring about an error status of an operation, from a call it answers 200. */
function provoking(operation: Operation, good: Call, status: number): Call[] {
  const secured = (operation.runtime.security ?? []).some((scheme) => Object.keys(scheme).length > 0);
  const bearer = (operation.runtime.security ?? []).some(
    (scheme) => 'bearerAuth' in scheme || 'auditorAuth' in scheme,
  );
  const { parameters } = operation;
  const header = parameters.find((parameter) => parameter.in === 'header' && parameter.required);
  const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
  const last = pathParameters[pathParameters.length - 1];
  switch (status) {
    case 400:
      return [
        { ...good, malformed: true },
        // Blank: a client made from the description does not send a request without a required header.
        ...(header ? [{ parameters: { ...good.parameters, [header.name]: ' ' } }] : []),
      ];
    case 401:
      return secured
        ? [
            { ...good, credentials: 'none' },
            { ...good, credentials: 'wrong' },
          ]
        : [];
    case 403:
      return [
        ...(bearer ? [{ ...good, credentials: 'roleless' as const }] : []),
        ...(header ? [{ parameters: { ...good.parameters, [header.name]: 'no-such-workspace' } }] : []),
      ];
    case 404:
      // A record named by the path, else by a query parameter (`scenario`).
      return (
        last ? [last] : parameters.filter((parameter) => parameter.in === 'query' && !parameter.schema?.enum)
      ).map((parameter) => ({ parameters: { ...good.parameters, [parameter.name]: missing(parameter) } }));
    case 410:
      // A cursor the API did not give (a change feed's `after`).
      return parameters
        .filter((parameter) => parameter.name === 'after' && typeOf(parameter) === 'string')
        .map((parameter) => ({ parameters: { ...good.parameters, [parameter.name]: 'no-such-cursor' } }));
    case 422:
      return parameters
        .filter(
          (parameter) => parameter !== header && (typeOf(parameter) === 'integer' || parameter.schema?.enum),
        )
        .map((parameter) => ({ parameters: { ...good.parameters, [parameter.name]: 'not-a-value' } }));
    case 429:
      return secured ? [{ ...good, credentials: 'wrong', deployment: 'throttled', twice: true }] : [];
    case 503:
      return [
        ...(secured ? [{ ...good, deployment: 'unconfigured' as const }] : []),
        ...(parameters.some((parameter) => parameter.name === 'X-Min-Position')
          ? [{ parameters: { ...good.parameters, 'X-Min-Position': '999999999999' } }]
          : []),
      ];
    default:
      return [];
  }
}

/* ---------------------------------------------------------------- the contract of one API */

interface Outcome {
  problems: string[];
  provoked: Set<string>;
}

async function exercise(operation: Operation, calls: Call[], outcome: Outcome): Promise<Answer[]> {
  const answers: Answer[] = [];
  const checkers = [described[operation.api].runtime, described[operation.api].compatibility].map(
    (document) => ({
      form: document.openapi,
      check: checkerOf(document),
    }),
  );
  for (const call of calls) {
    const full = {
      credentials: 'valid',
      deployment: 'configured',
      twice: false,
      malformed: false,
      ...call,
    } as Required<Call>;
    if (full.twice) await send(operation, full);
    const answer = await send(operation, full);
    answers.push(answer);
    outcome.provoked.add(`${operation.id} ${answer.status}`);
    for (const { form, check } of checkers) {
      for (const problem of check(operation.path, operation.method, answer)) {
        outcome.problems.push(`${operation.id} ${JSON.stringify(call.parameters)} (${form}): ${problem}`);
      }
    }
  }
  return answers;
}

const checkerCache = new Map<OpenApiDocument, ReturnType<typeof answerChecker>>();
function checkerOf(document: OpenApiDocument) {
  let checker = checkerCache.get(document);
  if (!checker) checkerCache.set(document, (checker = answerChecker(document)));
  return checker;
}

/**
 * The values of an operation's path parameters: records of the list at its parent path (a record's
 * own path, `/requests/{item_id}`, or one under it, `/requests/{item_id}/activity`), or PATH_VALUES.
 */
function pathValues(
  operation: Operation,
  listed: Map<string, Record<string, unknown>[]>,
): Record<string, unknown>[] {
  const names = operation.parameters
    .filter((parameter) => parameter.in === 'path')
    .map((parameter) => parameter.name);
  if (names.length === 0) return [{}];
  const source = PATH_VALUES[`${operation.api} ${operation.path}`] ?? {
    listedAt: operation.path.replace(/\/\{[^}]+\}(\/[a-z-]+)?$/, ''),
  };
  if (Array.isArray(source)) return source;
  const records = listed.get(source.listedAt) ?? [];
  const [name] = names as [string];
  if (records.length === 0) {
    // Nothing listed (no proposal in this module): the errors are still called for, the first a 404.
    const parameter = operation.parameters.find((candidate) => candidate.name === name) as ParameterObject;
    return [{ [name]: missing(parameter) }];
  }
  return records.slice(0, 2).map((record) => ({ [name]: record.id ?? record[name] }));
}

async function contractOf(api: Api): Promise<Outcome> {
  const outcome: Outcome = { problems: [], provoked: new Set() };
  const gets = operationsOf(api).filter((operation) => operation.method === 'get');
  const listed = new Map<string, Record<string, unknown>[]>();
  const byPathDepth = [
    gets.filter((operation) => !operation.path.includes('{')),
    gets.filter((operation) => operation.path.includes('{')),
  ];
  for (const operations of byPathDepth) {
    await Promise.all(
      operations.map(async (operation) => {
        const found = pathValues(operation, listed);
        if (found.length === 0) {
          outcome.problems.push(
            `${operation.id}: no values for its path parameters (add them to PATH_VALUES)`,
          );
          return;
        }
        const headers = Object.fromEntries(
          operation.parameters
            .filter((parameter) => parameter.in === 'header' && parameter.required)
            .map((parameter) => [
              parameter.name,
              parameter.name === 'X-Svc-Organisation' ? workspace : undefined,
            ]),
        );
        const required = (records: Record<string, unknown>[]) =>
          Object.fromEntries(
            operation.parameters
              .filter((parameter) => parameter.in === 'query' && parameter.required)
              .map((parameter) => [parameter.name, valuesOf(parameter, records)[0]]),
          );
        const base = { ...headers, ...(found[0] as object), ...required([]) };
        const [first] = await exercise(
          operation,
          found.map((values) => ({ parameters: { ...headers, ...values, ...required([]) } })),
          outcome,
        );
        const records = first ? recordsOf(first) : [];
        if (!operation.path.includes('{')) listed.set(operation.path, records);
        const variations = operation.parameters
          .filter((parameter) => parameter.in === 'query' && !parameter.required)
          .flatMap((parameter) =>
            valuesOf(parameter, records).map((value) => ({
              parameters: { ...base, [parameter.name]: value },
            })),
          );
        await exercise(operation, variations, outcome);
        const errors = Object.keys(operation.runtime.responses)
          .map(Number)
          .filter((status) => status >= 400);
        for (const status of errors) {
          await exercise(operation, provoking(operation, { parameters: base }, status), outcome);
        }
      }),
    );
  }
  for (const operation of gets) {
    if (!outcome.provoked.has(`${operation.id} 200`) && !NOTHING_TO_READ.includes(operation.id)) {
      outcome.problems.push(`${operation.id}: never answered 200`);
    }
    for (const status of Object.keys(operation.runtime.responses).filter((status) => Number(status) >= 400)) {
      const key = `${operation.id} ${status}`;
      if (!outcome.provoked.has(key) && !UNPROVOKED.some((pattern) => pattern.test(key)))
        outcome.problems.push(`${key}: described, never answered`);
    }
  }
  return outcome;
}

/* ---------------------------------------------------------------- the tests */

describe('the descriptions of every API of the suite', () => {
  it('give every operation an operationId, unique across the suite, the same in both forms', () => {
    const problems: string[] = [];
    const seen = new Map<string, string>();
    for (const api of APIS) {
      for (const operation of operationsOf(api)) {
        const where = `${api} ${operation.method.toUpperCase()} ${operation.path}`;
        if (!new RegExp(`^${api}_[a-z][A-Za-z0-9]*$`).test(operation.id))
          problems.push(`${where}: ${operation.id}`);
        const compatibility = described[api].compatibility.paths[operation.path]?.[operation.method];
        if (compatibility?.operationId !== operation.runtime.operationId)
          problems.push(`${where}: another id in 3.0.3`);
        const other = seen.get(operation.id);
        if (other) problems.push(`${where}: ${operation.id} is also ${other}`);
        seen.set(operation.id, where);
      }
    }
    expect(problems).toEqual([]);
  });

  it('type each path parameter one way on every operation of its path', () => {
    const problems: string[] = [];
    for (const api of APIS) {
      const typed = new Map<string, string>();
      for (const operation of operationsOf(api)) {
        for (const parameter of operation.parameters.filter((candidate) => candidate.in === 'path')) {
          const key = `${api} ${operation.path} {${parameter.name}}`;
          const schema = JSON.stringify(parameter.schema);
          const before = typed.get(key);
          if (before !== undefined && before !== schema) problems.push(`${key}: ${before} and ${schema}`);
          typed.set(key, schema);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('name the licence in both forms, its terms served where the 3.0.3 form says', async () => {
    for (const api of APIS) {
      const { runtime, compatibility } = described[api];
      const licence = (document: OpenApiDocument) => (document.info as { license?: object }).license;
      expect(licence(runtime)).toEqual({ name: expect.any(String), identifier: 'LicenseRef-Proprietary' });
      expect(licence(compatibility)).toEqual({ name: expect.any(String), url: expect.any(String) });
      const { url } = licence(compatibility) as { url: string };
      const terms = await fetch(new URL(url, `${contract.base.configured[api]}/`));
      expect(terms.status).toBe(200);
      expect(terms.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await terms.text()).toMatch(/^Proprietary/);
    }
  });

  it('describe the 400 that every operation, whatever its method, answers a malformed URL with', async () => {
    // Each API's contract below sends one to its GET operations; here, to the others.
    const problems: string[] = [];
    for (const api of APIS) {
      for (const operation of operationsOf(api).filter((candidate) => candidate.method !== 'get')) {
        const target = operation.path.replace(/\{[^}]+\}/g, '1');
        const response = await fetch(malformed(`${contract.base.configured[api]}${target}`), {
          method: operation.method.toUpperCase(),
        });
        const contentType = response.headers.get('content-type') ?? undefined;
        const answer = answerOf(response.status, contentType, await response.text());
        if (answer.status !== 400) problems.push(`${operation.id}: answered ${answer.status}`);
        for (const document of Object.values(described[api])) {
          for (const problem of checkerOf(document)(operation.path, operation.method, answer))
            problems.push(`${operation.id} (${document.openapi}): ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("pass Redocly's recommended rules, but for the trailing slash of GET /api/ the specification names", async () => {
    const { dir, cleanup } = tempDir('suite-descriptions-');
    try {
      const files = APIS.flatMap((api) =>
        Object.entries(described[api]).map(([form, document]) => {
          const file = path.join(dir, `${api}.${form}.json`);
          writeFileSync(file, JSON.stringify(document));
          return file;
        }),
      );
      const redocly = path.join(__dirname, '..', '..', 'node_modules', '.bin', 'redocly');
      // Not synchronously: the APIs served by this process keep answering meanwhile.
      const run = await promisify(execFile)(
        redocly,
        ['lint', '--extends', 'recommended', '--format', 'json', ...files],
        {
          encoding: 'utf8',
          maxBuffer: 64 * 2 ** 20,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        },
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      // One JSON report per file, back to back.
      const reports = JSON.parse(`[${run.stdout.replace(/^\}\{$/gm, '},{')}]`) as {
        problems: {
          ruleId: string;
          message: string;
          location: { source: { ref: string }; pointer: string }[];
        }[];
      }[];
      expect(reports).toHaveLength(files.length);
      const problems = reports
        .flatMap((report) => report.problems)
        .filter((problem) => !ALLOWED_BY_LINT.includes(`${problem.ruleId} ${problem.location[0]?.pointer}`))
        .map(
          (problem) =>
            `${path.basename(problem.location[0]?.source.ref ?? '')} ${problem.location[0]?.pointer}: ${problem.ruleId} ${problem.message}`,
        );
      expect(problems).toEqual([]);
    } finally {
      cleanup();
    }
  });
});

describe.each(APIS)('%s', (api) => {
  it('answers every GET operation, called by operationId, as both forms of its description say', async () => {
    const { problems } = await (outcomes.get(api) as Promise<Outcome>);
    expect(problems).toEqual([]);
  });
});
