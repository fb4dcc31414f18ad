import fc from 'fast-check';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createModuleApp } from '../../src/api/kit/app';
import { guardedPort, portSecurity } from '../../src/api/kit/port-guard';
import { loadConfig } from '../../src/config';
import type { ModuleDefinition } from '../../src/api/kit/module';
import { describeModule } from '../../src/api/kit/openapi';
import { MODULES } from '../../src/api/modules';
import { ACME, clmFixtures } from '../support/clm-fixtures';
import {
  VALUE_MUTATIONS,
  accessHeaders,
  describeRequest,
  hostFaults,
  nameOf,
  operationsOf,
  positionsOf,
  problemsWith,
  readFaults,
  requestFaults,
  sampleBody,
  send,
  valueRequest,
  type Credentials,
  type HostileRequest,
  type JsonPath,
  type Operation,
  type ValueMutation,
} from '../support/hostile-requests';
import { SECRET, cookieFor, writeMarketFixtures } from '../support/market-fixtures';
import { openModule, TOKEN, type ModuleHarness } from '../support/module-harness';
import { errorText, watchProcessFate, type ProcessFate } from '../support/process-fate';
import { SERVICE_PATHS } from './spec';

/**
 * Hostile input to every endpoint of every module, driven by the module's OpenAPI description and sent
 * with valid credentials, so that each request reaches the body and parameter handling. For each write,
 * a valid-looking body is generated from its schema and one JSON position at a time is made hostile:
 * nesting 64, 65, 1,000 and 50,000 levels deep (as parsed JSON and as JSON text in string fields),
 * arrays and strings up to and beyond the 100 KiB body limit, odd Unicode and wrong types; each write
 * also gets wrong content types, encodings, repeated headers and malformed JSON; each read hostile
 * query and path values, repeated headers and a body on GET. Every answer must be below 500, in the
 * error shape and under 8 kB when it is an error (413 for a body over the limit), with nothing appended
 * to the log; the process must not meet an uncaught exception or unhandled rejection (either ends
 * `suite start`), and must still answer its health and a read afterwards.
 *
 * Every sampled request is sent, and a test fails listing each request that broke, not just the first.
 */

const SEED = 26;
/** Random (position, mutation) pairs per write, beyond one example of every mutation. */
const WRITE_RUNS = 12;
/** Kinds of read fault each read gets in turn (the module's reads together get every kind). */
const READ_EXAMPLES = 10;
/** Random read faults per read, beyond those. */
const READ_RUNS = 4;
/** Long enough for any honest answer here; a request that crashed is reported at once, not after it. */
const ANSWER_TIMEOUT_MS = 20_000;
/** Random host names (and ports) per module, beyond the listed foreign hosts. */
const HOST_RUNS = 25;

interface Target {
  harness: ModuleHarness<unknown>;
  server: Server;
  port: number;
  credentials: Credentials;
  probes: HostileRequest[];
}

async function openTarget(module: ModuleDefinition): Promise<Target> {
  const credentials: Credentials = {
    token: TOKEN,
    cookie: cookieFor('hostile-user'),
    organisation: ACME,
    actor: 'm-acme-editor',
  };
  let harness: ModuleHarness<unknown>;
  if (module.id === 'clm') {
    const clm = await openModule(module, { fixtures: clmFixtures });
    credentials.pathValues = { 'POST /contracts/{id}/signatures id': clm.fixtures.approved };
    credentials.bodyOverrides = { 'POST /api/v1/obligations': { contract_id: clm.fixtures.active } };
    harness = clm;
  } else if (module.id === 'market') {
    harness = await openModule(module, { fixtures: writeMarketFixtures });
  } else {
    harness = await openModule(module);
  }
  // Fully configured, as a deployment is, behind the guard of the module's port.
  const app = createModuleApp(module, harness.suite, { apiToken: TOKEN, sessionSecret: SECRET });
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const settings = loadConfig({ [`SUITE_${module.id.toUpperCase()}_PORT`]: String(port) });
  server.on('request', guardedPort(app, portSecurity(settings, 'api')));
  const probe = operationsOf(describeModule(module).runtime).find(
    (operation) =>
      operation.method === 'get' && !operation.path.includes('{') && !SERVICE_PATHS.includes(operation.path),
  ) as Operation;
  const get = (path: string, headers: HostileRequest['headers']): HostileRequest => ({
    operation: `GET ${path}`,
    class: 'hostile query and path values',
    fault: 'none: a liveness probe',
    method: 'GET',
    path,
    headers,
  });
  const pages = probe.parameters.some((parameter) => parameter.name === 'limit');
  return {
    harness,
    server,
    port,
    credentials,
    probes: [
      get('/api/v1/health', []),
      get(`${probe.path}${pages ? '?limit=1' : ''}`, accessHeaders(probe, credentials)),
    ],
  };
}

async function closeTarget(target: Target): Promise<void> {
  target.server.closeAllConnections();
  await new Promise((resolve) => target.server.close(resolve));
  await target.harness.close();
}

/** Resolves with the read models at the head of the log, or rejects with why they are not. */
async function readModelsKeepUp(harness: ModuleHarness<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('they did not reach the head')), ANSWER_TIMEOUT_MS);
  });
  try {
    await Promise.race([harness.settle(), stalled]);
  } finally {
    clearTimeout(timer);
  }
}

let fate: ProcessFate;
beforeAll(() => {
  fate = watchProcessFate();
});
afterAll(() => fate.restore());

describe.each(MODULES.map((module) => [module.id, module] as const))(
  'hostile input to every %s endpoint',
  (_id, module) => {
    const operations = operationsOf(describeModule(module).runtime);
    let target: Target;
    beforeAll(async () => {
      target = await openTarget(module);
    });
    afterAll(() => closeTarget(target));

    /** Sends one request and answers what broke; a module left unable to project is opened afresh. */
    async function attempt(request: HostileRequest): Promise<string[]> {
      const { eventStore } = target.harness.suite;
      const head = await eventStore.headPosition();
      const outcome = await send({ host: '127.0.0.1', port: target.port }, request, {
        timeoutMs: ANSWER_TIMEOUT_MS,
        signal: fate.signal(),
      });
      const fatal = fate.take();
      const problems =
        fatal.length > 0
          ? fatal.map((error) => `no answer: the process would have ended (${errorText(error)})`)
          : problemsWith(request, outcome);
      const status = 'status' in outcome ? outcome.status : undefined;
      const after = await eventStore.headPosition();
      if (after !== head && (status === undefined || status >= 400))
        problems.push(`refused (${status ?? 'no answer'}) yet ${after - head} event(s) were appended`);
      let broken = false;
      if (after !== head) {
        try {
          await readModelsKeepUp(target.harness);
        } catch (error) {
          broken = true;
          const at = target.harness.suite.runtime.position();
          problems.push(
            `the read models stopped at position ${at} of ${after} (${errorText(error)}): one event stops every projection`,
          );
        }
      }
      for (const probe of target.probes) {
        const answer = await send({ host: '127.0.0.1', port: target.port }, probe, {
          timeoutMs: ANSWER_TIMEOUT_MS,
          signal: fate.signal(),
        });
        const lost = fate.take();
        if (lost.length > 0 || !('status' in answer) || answer.status !== 200) {
          broken = true;
          const why =
            lost.length > 0 ? errorText(lost[0]) : 'status' in answer ? answer.status : answer.failed;
          problems.push(`afterwards ${probe.path} answered ${why}`);
        }
      }
      if (broken) {
        await closeTarget(target);
        target = await openTarget(module);
      }
      return problems.map((problem) => `${describeRequest(request)}: ${problem}`);
    }

    const writes = operations.filter((operation) => operation.body !== undefined);
    const reads = operations.filter((operation) => operation.method === 'get');

    if (writes.length > 0) {
      it.each(writes.map((operation) => [nameOf(operation), operation] as const))(
        '%s: each JSON position made hostile is refused in the error shape, appending nothing',
        async (_name, operation) => {
          const sample = sampleBody(operation, target.credentials);
          const positions = positionsOf(sample ?? null, operation.body ?? {}).map(
            (position) => position.path,
          );
          // One example of every mutation, at positions taken in turn (where the mutation applies), and
          // every string position holding JSON text.
          const applies = (position: JsonPath, mutation: number) =>
            valueRequest(operation, target.credentials, position, VALUE_MUTATIONS[mutation] as ValueMutation);
          const examples: [{ position: JsonPath; mutation: number }][] = VALUE_MUTATIONS.flatMap(
            (mutation, index) => {
              const start = index % positions.length;
              const turn = [...positions.slice(start), ...positions.slice(0, start)];
              const chosen =
                mutation.class === 'deep nesting (JSON text in a string)'
                  ? turn.filter((position) => applies(position, index))
                  : turn.filter((position) => applies(position, index)).slice(0, 1);
              return chosen.map(
                (position) => [{ position, mutation: index }] as [{ position: JsonPath; mutation: number }],
              );
            },
          );
          const failures: string[] = [];
          await fc.assert(
            fc.asyncProperty(
              fc.record({
                position: fc.constantFrom(...positions),
                mutation: fc.integer({ min: 0, max: VALUE_MUTATIONS.length - 1 }),
              }),
              async ({ position, mutation }) => {
                const request = valueRequest(
                  operation,
                  target.credentials,
                  position,
                  VALUE_MUTATIONS[mutation] as ValueMutation,
                );
                if (request) failures.push(...(await attempt(request)));
              },
            ),
            // The examples count among the runs.
            { numRuns: examples.length + WRITE_RUNS, seed: SEED, examples },
          );
          expect(failures).toEqual([]);
        },
      );

      it.each(writes.map((operation) => [nameOf(operation), operation] as const))(
        '%s: wrong content types, encodings, repeated headers and malformed JSON are refused in the error shape',
        async (_name, operation) => {
          const failures: string[] = [];
          for (const request of requestFaults(operation, target.credentials))
            failures.push(...(await attempt(request)));
          expect(failures).toEqual([]);
        },
      );
    }

    it.each(reads.map((operation, index) => [nameOf(operation), operation, index] as const))(
      '%s: hostile query and path values, repeated headers and a body on GET answer well-formed',
      async (_name, operation, index) => {
        const faults = readFaults(operation, target.credentials);
        // Kinds of fault (a query value's kind is one whatever the parameter), taken in turn across the
        // module's reads so that each read gets a few and the module every one, then random ones.
        const kinds = [
          ...new Map(faults.map((fault, at) => [fault.fault.replace(/^\?\w+|\{\w+\}/, ''), at])).values(),
        ];
        const examples = Array.from(
          { length: Math.min(READ_EXAMPLES, kinds.length) },
          (_, turn) => [kinds[(index * READ_EXAMPLES + turn) % kinds.length] as number] as [number],
        );
        const failures: string[] = [];
        await fc.assert(
          fc.asyncProperty(fc.integer({ min: 0, max: faults.length - 1 }), async (at) => {
            failures.push(...(await attempt(faults[at] as HostileRequest)));
          }),
          { numRuns: examples.length + READ_RUNS, seed: SEED, examples },
        );
        expect(failures).toEqual([]);
      },
    );

    it('refuses every operation with 421 for a host it does not answer for, before routing, appending nothing', async () => {
      const failures: string[] = [];
      for (const operation of operations)
        for (const request of hostFaults(operation, target.credentials, target.port))
          failures.push(...(await attempt(request)));
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...operations),
          fc.domain(),
          fc.option(fc.integer({ min: 1, max: 65_535 })),
          async (operation, name, port) => {
            const [request] = hostFaults(operation, target.credentials, target.port) as [HostileRequest];
            const host = port === null ? name : `${name}:${port}`;
            failures.push(...(await attempt({ ...request, host, fault: `Host: ${host}` })));
          },
        ),
        { numRuns: HOST_RUNS, seed: SEED },
      );
      expect(failures).toEqual([]);
    });

    it('still answers its health and a read after all of the above, with the read models at the head', async () => {
      await readModelsKeepUp(target.harness);
      for (const probe of target.probes) {
        const answer = await send({ host: '127.0.0.1', port: target.port }, probe, {
          timeoutMs: ANSWER_TIMEOUT_MS,
        });
        expect(['status' in answer ? answer.status : answer.failed, probe.path]).toEqual([200, probe.path]);
      }
    });
  },
);
