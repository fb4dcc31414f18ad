import type { Logger } from 'pino';
import { z } from 'zod';
import type { Clock } from '../../clock';
import type { IdAllocator } from '../../commands/ids';
import type { Config } from '../../config';
import type { SuiteCatalog } from '../../events/catalog';
import type { EventStore } from '../../events/event-store';
import type { Role } from '../../iam/principal';
import type { LogTree } from '../../log-proofs/log-tree';
import type { SubjectKeyStore } from '../../privacy/subject-keys';
import type { ReadStore } from '../../projections/read-store';
import type { ProjectionProgress } from '../../projections/runtime';
import type { ModuleDefinition, ModuleRoute } from '../kit/module';
import type { ServingServices } from '../kit/observation';

export interface AuditServices extends ServingServices {
  modules: readonly ModuleDefinition[];
  catalog: SuiteCatalog;
  /** The log as stored (personal data sealed): what auditors are shown, its opened values beside, and what `verify` checks. */
  storedEvents: EventStore;
  /** Where the projections park the events they cannot apply. */
  readStore: ReadStore;
  /** The Merkle tree over the log and its signed checkpoints; absent, the proof routes answer 503. */
  logTree?: LogTree;
  logger: Logger;
  /** For erasures: the commands' log and ids, the subjects' keys, and how far the read models are. */
  eventStore: EventStore;
  ids: IdAllocator;
  clock: Clock;
  subjectKeys: SubjectKeyStore;
  runtime: ProjectionProgress;
  /** The bootstrap administrator's token (erasures take the admin role), and the budget of public reads. */
  config: Pick<Config, 'apiToken'> & Partial<Pick<Config, 'logReadRateLimit'>>;
}

/** A route of the audit API: it names the role it needs (`null`: any valid credential). */
export type AuditRoute<Query = unknown, Body = unknown> = ModuleRoute<Query, Body, AuditServices> & {
  role: Role | null;
};

/** A list's page when none is asked for. */
export const DEFAULT_PAGE = 100;

/** `meta` of a paginated list: the exact total, and the page asked for. */
export const PageMeta = z.object({
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

export const EventEnvelope = z
  .object({
    event_id: z.string(),
    stream: z.string(),
    revision: z.number().int(),
    position: z.number().int(),
    type: z.string(),
    schema_version: z.number().int(),
    data: z.record(z.string(), z.unknown()).meta({
      description:
        'As the log stores it, what `hash` covers: each personal value sealed (`pd1:<erased as>:<subject>:<key id>:<sealed>`)',
    }),
    opened: z.record(z.string(), z.unknown()).optional().meta({
      description:
        'Each sealed value of `data` opened, by its JSON pointer into `data` (`/reason`); `"[erased]"` or null once its subject was erased. Absent when `data` holds none. Not covered by `hash`',
    }),
    metadata: z.record(z.string(), z.unknown()),
    prev_hash: z.string(),
    hash: z.string(),
  })
  .meta({ id: 'EventEnvelope' });
