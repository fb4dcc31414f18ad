import type { z } from 'zod';
import type { StoredEvent } from './envelope';

/** A domain event type: its name, the schema of its data, and the version of that schema. */
export interface EventDefinition<Type extends string = string, Schema extends z.ZodType = z.ZodType> {
  type: Type;
  schemaVersion: number;
  schema: Schema;
}

export function defineEvent<Type extends string, Schema extends z.ZodType>(
  type: Type,
  schema: Schema,
  schemaVersion = 1,
): EventDefinition<Type, Schema> {
  return { type, schema, schemaVersion };
}

/** The event union a set of definitions describes, as deciders and projections see it. */
export type EventsOf<Definitions extends readonly EventDefinition[]> = {
  [K in keyof Definitions]: Definitions[K] extends EventDefinition<infer Type, infer Schema>
    ? { type: Type; data: z.infer<Schema> }
    : never;
}[number];

export type StoredEventsOf<Definitions extends readonly EventDefinition[]> = {
  [K in keyof Definitions]: Definitions[K] extends EventDefinition<infer Type, infer Schema>
    ? StoredEvent<Type, z.infer<Schema>>
    : never;
}[number];

export type EventCatalog = ReadonlyMap<string, EventDefinition>;

export function eventCatalog(definitions: readonly EventDefinition[]): EventCatalog {
  return new Map(definitions.map((definition) => [definition.type, definition]));
}
