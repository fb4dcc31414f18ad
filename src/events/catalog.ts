import type { z } from 'zod';
import { streamModule, type StoredEvent } from './envelope';

/** Turns data of one older schema version into data of the next version. */
export interface Upcaster {
  /** The version this upcaster reads. */
  from: number;
  /** The schema data had at version `from`. */
  schema: z.ZodType;
  upcast(data: unknown): unknown;
}

/**
 * Fields of an event's data that are one person's personal data: stored encrypted under that data
 * subject's key, and unreadable once the subject is erased (see docs/PERSONAL-DATA.md).
 */
export interface PersonalFields<Data = unknown> {
  /**
   * The data subject, a stream name such as `hrm.employee-42`: usually the event's own stream. With
   * `each`, asked for every item of that array, given the item.
   */
  subject(event: { stream: string; data: Data }, item?: unknown): string;
  /**
   * The fields: a top-level field of the data (`first_name`), a field of a nested object
   * (`address.city`), or a field of every item of an array (`attendees[].email`; `notes[]` for the
   * items themselves). With `each`, the fields of each item (`email`).
   */
  fields: readonly string[];
  /**
   * An array field (`to`) whose every item is one person's, each naming its own subject (a message's
   * recipients, each a contact or not).
   */
  each?: string;
}

/** A domain event type: its name, the schema of its data, and the version of that schema. */
export interface EventDefinition<Type extends string = string, Schema extends z.ZodType = z.ZodType> {
  type: Type;
  schemaVersion: number;
  schema: Schema;
  /** One per older version, so an event stored at any version can be read at the current one. */
  upcasters: readonly Upcaster[];
  /** The personal data the event carries, by data subject; none for most events. */
  personal: readonly PersonalFields<z.infer<Schema>>[];
  /** Personal data the event's own data names, where no declaration can (see `EventOptions.personalIn`). */
  personalIn?: (data: z.infer<Schema>) => readonly NamedPersonalFields[];
}

/** Fields of one event's data that are a subject's personal data, as the event names them itself. */
export interface NamedPersonalFields {
  subject: string;
  fields: readonly string[];
}

export interface EventOptions<Data> {
  /** The schema's version (default 1), with an upcaster from each older one. */
  version?: number;
  upcasters?: readonly Upcaster[];
  personal?: readonly PersonalFields<Data>[];
  /**
   * For an event that holds data of other events' shape (a proposal holds the body of the write it
   * holds back): the personal fields its data names, by subject. Sealed like declared fields.
   */
  personalIn?: (data: Data) => readonly NamedPersonalFields[];
}

export function defineEvent<Type extends string, Schema extends z.ZodType>(
  type: Type,
  schema: Schema,
  { version = 1, upcasters = [], personal = [], personalIn }: EventOptions<z.infer<Schema>> = {},
): EventDefinition<Type, Schema> {
  const missing = Array.from({ length: version - 1 }, (_, index) => index + 1).filter(
    (older) => !upcasters.some((upcaster) => upcaster.from === older),
  );
  if (missing.length > 0) throw new Error(`${type} v${version} needs upcasters from v${missing.join(', v')}`);
  return { type, schema, schemaVersion: version, upcasters, personal, ...(personalIn && { personalIn }) };
}

/** Personal fields whose subject is the event's own stream (the person the stream follows). */
export const ownPersonalData = (...fields: string[]): PersonalFields[] => [
  { subject: ({ stream }) => stream, fields },
];

/**
 * Personal fields of each item of an array (`each`), keyed to the subject the item names: `subject`
 * is given the event and the item.
 */
export function personalItems<Item>(
  each: string,
  subject: (event: { stream: string }, item: Item) => string,
  ...fields: string[]
): PersonalFields {
  return { each, fields, subject: (event, item) => subject(event, item as Item) };
}

/** The schema an event's data must satisfy at the version it was stored with. */
export function schemaAt(definition: EventDefinition, version: number): z.ZodType | undefined {
  if (version === definition.schemaVersion) return definition.schema;
  return definition.upcasters.find((upcaster) => upcaster.from === version)?.schema;
}

/** The event as its type's current version reads it; stored events are never rewritten. */
export function upcast<Event extends StoredEvent>(catalog: SuiteCatalog, event: Event): Event {
  const definition = definitionFor(catalog, event);
  if (!definition || event.schema_version >= definition.schemaVersion) return event;
  let data = event.data;
  for (let version = event.schema_version; version < definition.schemaVersion; version++) {
    const upcaster = definition.upcasters.find((candidate) => candidate.from === version);
    if (!upcaster) throw new Error(`${event.type} has no upcaster from v${version}`);
    data = upcaster.upcast(data);
  }
  return { ...event, data, schema_version: definition.schemaVersion };
}

/** The event union a set of definitions describes, as deciders and projections see it. */
export type EventsOf<Definitions extends readonly EventDefinition[]> = {
  [K in keyof Definitions]: Definitions[K] extends EventDefinition<infer Type, infer Schema>
    ? { type: Type; data: z.infer<Schema> }
    : never;
}[number];

export type EventCatalog = ReadonlyMap<string, EventDefinition>;

export function eventCatalog(definitions: readonly EventDefinition[]): EventCatalog {
  return new Map(definitions.map((definition) => [definition.type, definition]));
}

/** Every module's catalog, by module id: event types are named within their module. */
export type SuiteCatalog = ReadonlyMap<string, EventCatalog>;

export function suiteCatalog(
  modules: readonly { id: string; events: readonly EventDefinition[] }[],
): SuiteCatalog {
  return new Map(modules.map((module) => [module.id, eventCatalog(module.events)]));
}

/** The definition of a stored event's type, in the catalog of the module its stream belongs to. */
export function definitionFor(catalog: SuiteCatalog, event: { stream: string; type: string }) {
  return catalog.get(streamModule(event.stream))?.get(event.type);
}
