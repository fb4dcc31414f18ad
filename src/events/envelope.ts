/**
 * Who or what caused an event: a principal (`key:<id>`, `oidc:<sub>`, `token:admin`), a market user
 * (`user:<id>`), an operator at the command line (`os:<user>`), the seed or a worker.
 */
export type Actor = string;

export interface EventMetadata {
  actor: Actor;
  /** The principal's name, when it has one: an API key's name, a token's name or email claim. */
  actor_name?: string;
  /** The person behind the principal: every credential of one person names the same (see docs/SECURITY.md). */
  person?: string;
  organisation?: string;
  /** The contract workspace member a principal acted as. */
  member?: string;
  /** A write held back for approval: the proposal, who proposed it and who approved it. */
  proposal_id?: string;
  proposed_by?: string;
  approved_by?: string;
  approver_person?: string;
  request_id: string;
  correlation_id: string;
  causation_id: string | null;
  /** When it happened, as the command that wrote it tells (business time): not monotonic in the log. */
  occurred_at: string;
  /**
   * When the log recorded it (ISO 8601 UTC with milliseconds), set by the store as it appends and
   * covered by the hash: never earlier than the recording time of any event before it in the log, so
   * a recording time cuts the log at one position. Events appended before the log kept this carry none
   * and count as recorded before the first that does.
   */
  recorded_at?: string;
  idempotency_key?: string;
  /**
   * The W3C trace context the event was appended in, when the process traces: who follows the log
   * continues that trace. Absent otherwise, so that an untraced append stores what it always did.
   */
  traceparent?: string;
}

/** An event as a decider produces it, before the store gives it a place in the log. */
export interface NewEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/** The envelope every stored event carries (see docs/ARCHITECTURE.md, "The log: envelopes, hash chains, upcasters, stores"). */
export interface StoredEvent<Type extends string = string, Data = unknown> {
  event_id: string;
  stream: string;
  revision: number;
  position: number;
  type: Type;
  schema_version: number;
  data: Data;
  metadata: EventMetadata;
  prev_hash: string;
  hash: string;
}

/** `esm.request-42` -> category `esm.request`, module `esm`. */
export function streamCategory(stream: string): string {
  const dash = stream.indexOf('-');
  return dash === -1 ? stream : stream.slice(0, dash);
}

export function streamModule(stream: string): string {
  return stream.slice(0, stream.indexOf('.'));
}

/** The number after the category, when the stream is numbered (`esm.request-42` -> 42). */
export function streamNumber(stream: string): number | null {
  const suffix = stream.slice(streamCategory(stream).length + 1);
  return /^\d+$/.test(suffix) ? Number(suffix) : null;
}
