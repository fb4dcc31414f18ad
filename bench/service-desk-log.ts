import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { esmModule } from '../src/api/esm';
import { createLogger } from '../src/api/kit/logging';
import { isoTimestamp } from '../src/clock';
import { requestDecider, type RequestCommand, type RequestState } from '../src/commands/esm/requests';
import { loadConfig, type Config } from '../src/config';
import { esmStreams, type RequestPriority } from '../src/events/esm';
import type { PendingEvent } from '../src/events/event-store';
import { openSuite, settle, startWorker } from '../src/main';
import { createSeedContext } from '../src/seed/context';
import { DEPARTMENTS, SERVICES } from '../src/seed/esm-data';
import { seededBytes, seededRandom, type SeededRandom } from '../src/seed/random';

/** Bumped whenever the generated log or the read models' layout changes, so that cached logs are not reused. */
const GENERATOR_VERSION = 4;
const CACHE = process.env.BENCH_CACHE_DIR ?? path.join(tmpdir(), 'suite-bench-logs');
/** Requests appended in one turn of the event loop: one group commit. */
const CHUNK = 2000;
const HOUR = 3_600_000;
const YEAR_START = new Date('2025-11-20T08:00:00Z').getTime();
const PRIORITIES: Record<RequestPriority, number> = { Low: 25, Medium: 45, High: 22, Urgent: 8 };

/** A log of `events` events in all, or one holding `requests` service requests in all. */
export type LogSize = { events: number } | { requests: number };

export interface ServiceDeskLog {
  /** A data directory (events.db and caught-up read-models.db) for `suite start` or `suite rebuild`. */
  dataDir: string;
  events: number;
  requests: number;
}

export function benchConfig(dataDir: string, env: NodeJS.ProcessEnv = {}): Config {
  return loadConfig({ ...env, SUITE_DATA_DIR: dataDir, SUITE_SEED: 'none', SUITE_LOG_LEVEL: 'silent' });
}

/**
 * The service desk's demo data, then synthetic requests taken through the same workflow the seed
 * follows (decided by the real request decider) until the log has the size asked for, projected.
 * Built once per size and kept in the temp directory (BENCH_CACHE_DIR) for the next runs.
 */
export async function serviceDeskLog(size: LogSize): Promise<ServiceDeskLog> {
  const name = 'events' in size ? `events-${size.events}` : `requests-${size.requests}`;
  const dataDir = path.join(CACHE, `v${GENERATOR_VERSION}-${name}`);
  const summaryFile = path.join(dataDir, 'bench-log.json');
  if (existsSync(summaryFile)) return JSON.parse(readFileSync(summaryFile, 'utf8')) as ServiceDeskLog;

  const building = `${dataDir}.partial`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const started = performance.now();
  const counts = await build(building, size);
  renameSync(building, dataDir);
  const log: ServiceDeskLog = { dataDir, ...counts };
  writeFileSync(summaryFile, JSON.stringify(log));
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `built ${name}: ${counts.events} events, ${counts.requests} requests in ${seconds.toFixed(1)} s`,
  );
  return log;
}

async function build(dataDir: string, size: LogSize): Promise<{ events: number; requests: number }> {
  const suite = await openSuite(benchConfig(dataDir), {
    logger: createLogger('silent'),
    randomBytes: seededBytes('bench'),
  });
  try {
    await esmModule.seed?.(createSeedContext(suite.eventStore, suite.ids, 'demo:esm'));
    // Through the log's personal-data seal, as the API appends (a request's form answers are sealed).
    const store = suite.auditEvents;
    const random = seededRandom('bench');
    let events = await store.headPosition();
    let requests = await store.lastStreamNumber('esm.request');
    const enough = () => ('events' in size ? events >= size.events : requests >= size.requests);
    while (!enough()) {
      const left = 'events' in size ? Math.ceil((size.events - events) / 5) : size.requests - requests;
      const chunk = Array.from({ length: Math.min(CHUNK, left) }, () => requestLife(random, ++requests));
      await Promise.all(
        chunk.map((life) =>
          store.append(esmStreams.request(life.id), life.events, {
            expectedRevision: 'no_stream',
            metadata: {
              actor: `user-${life.requester}`,
              request_id: `bench-${life.id}`,
              correlation_id: `bench-${life.id}`,
              causation_id: null,
              occurred_at: life.at,
            },
          }),
        ),
      );
      events = await store.headPosition();
      process.stderr.write(`\rgenerating: ${events} events, ${requests} requests`);
    }
    process.stderr.write(`\nprojecting ${events} events\n`);
    // As `suite start` does: read models and job triggers caught up, so that a start is a restart.
    await suite.runtime.start();
    await startWorker(suite);
    await settle(suite);
    return { events, requests };
  } finally {
    await suite.close();
  }
}

/** One request's whole life, decided as the API would decide it, appended at once. */
export function requestLife(
  random: SeededRandom,
  id: number,
): { id: number; requester: number; at: string; events: PendingEvent[] } {
  const serviceIndex = random.int(0, SERVICES.length - 1);
  const service = SERVICES[serviceIndex] as (typeof SERVICES)[number];
  const template = random.pick(service.requests);
  const requester = random.int(1001, 1400);
  let time = YEAR_START + random.float() * 365 * 24 * HOUR;
  const at = () => isoTimestamp(new Date((time += random.float() * 30 * HOUR)));
  const departmentIndex = DEPARTMENTS.findIndex((department) => department.key === service.department);
  const commands: RequestCommand[] = [
    {
      type: 'SubmitRequest',
      id,
      at: new Date(time),
      title: template.title,
      status: 'Open',
      priority: random.weighted(PRIORITIES),
      service_id: serviceIndex + 1,
      // Synthetic requests may name inactive services: the decider is asked as if they were active.
      service: {
        department_id: departmentIndex + 1,
        sla_hours: service.sla_hours,
        requires_approval: service.requires_approval,
        is_active: true,
      },
      department_id: null,
      departmentExists: true,
      requester_id: requester,
      // Synthetic requesters are asked after as if they were employees.
      requesterExists: true,
      form_data: JSON.stringify(template.form_data),
    },
  ];
  if (service.requires_approval) {
    const rejected = random.chance(0.1);
    commands.push({ type: rejected ? 'RejectRequest' : 'ApproveRequest', approver_id: 2001, at: at() });
  }
  commands.push({
    type: 'AssignRequest',
    assignee_id: random.int(1, 8),
    agent: { is_active: true },
    at: at(),
  });
  if (random.chance(0.75)) commands.push({ type: 'ReplyToRequest', at: at() });
  commands.push({ type: 'ResolveRequest', at: at() });
  if (random.chance(0.6)) commands.push({ type: 'GiveFeedback', rating: random.int(1, 5) });
  commands.push({ type: 'CloseRequest', at: at() });
  // A fifth of the requests are the open backlog, somewhere along their way.
  const steps = random.chance(0.2) ? commands.slice(0, random.int(1, commands.length)) : commands;

  const events: PendingEvent[] = [];
  let state: RequestState = requestDecider.initialState();
  for (const command of steps) {
    let decided;
    try {
      decided = requestDecider.decide(command, state);
    } catch {
      break; // e.g. nothing to assign after a rejection: the life ends there
    }
    for (const decidedEvent of decided) events.push({ ...decidedEvent, schema_version: 1 });
    state = decided.reduce(requestDecider.evolve, state);
  }
  return { id, requester, at: isoTimestamp(new Date(time)), events };
}
