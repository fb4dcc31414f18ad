import type { z } from 'zod';
import type { CommandContext, CommandResult } from '../../commands/context';
import type { EventDefinition } from '../../events/catalog';
import type { DocumentProjection, Projector } from '../../projections/projection';
import type { CollectionDefinition, DocumentId, FilterOperator } from '../../projections/read-store';
import type { SeedContext } from '../../seed/context';

export const MODULE_IDS = ['esm', 'clm', 'hrm', 'market', 'ppm', 'crm', 'lms', 'cms', 'mail', 'fpa'] as const;
export type ModuleId = (typeof MODULE_IDS)[number];

/** A list query parameter that filters on a document field. */
export interface FilterDefinition {
  field: string;
  op?: FilterOperator;
  schema: z.ZodType<string | number | boolean>;
  description: string;
}

/** A read resource: `GET /api/v1/<path>` and `GET /api/v1/<path>/{id}`. */
export interface ResourceDefinition {
  path: string;
  /** Singular, for messages: `Request 42 not found`. */
  name: string;
  description: string;
  collection: CollectionDefinition;
  record: z.ZodObject;
  filters?: Readonly<Record<string, FilterDefinition>>;
  /**
   * The stream holding a record's events, when one stream does: the audit API then reads it directly
   * instead of scanning the module's events for those the resource's projection maps to the record.
   */
  stream?: (id: DocumentId) => string;
}

/** An audited write: the kit authenticates, validates the body, records metadata and answers. */
export interface WriteRoute<Body = unknown> {
  method: 'post' | 'patch';
  /** Express path, e.g. `/api/v1/requests/:item_id`. */
  path: string;
  summary: string;
  body: z.ZodType<Body>;
  status: 200 | 201;
  /** The record the answer carries: the stream folded through this projection. */
  resource: ResourceDefinition;
  projection: DocumentProjection;
  execute(
    input: { body: Body; params: Record<string, string> },
    context: CommandContext,
  ): Promise<CommandResult>;
}

export interface ModuleDefinition {
  id: ModuleId;
  title: string;
  description: string;
  /** Version of the module's interface description. */
  version: string;
  /** Name of the path parameter of by-id reads (`item_id` in the service desk). */
  itemParam: string;
  /** `detail`: 422 `{"detail": [...]}` for bad read parameters; `envelope`: the error envelope. */
  readErrors: 'detail' | 'envelope';
  list: { defaultLimit: number; maxLimit: number };
  resources: readonly ResourceDefinition[];
  writes: readonly WriteRoute[];
  events: readonly EventDefinition[];
  projector: Projector;
  /** Writes the module's demo data through its commands. */
  seed?: (context: SeedContext) => Promise<void>;
}
