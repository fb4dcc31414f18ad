import type { EventMetadata } from './envelope';
import type { StreamAppend } from './event-store';

/**
 * The most bytes of events one stream's part of an append may hold, on every adapter: EventStoreDB
 * refuses an append whose events' data, metadata and types exceed its `MaxAppendSize` (1 MiB by
 * default), so the port refuses it on every store, and bulk writers split their appends to fit.
 */
export const MAX_APPEND_BYTES = 1_048_576;

/**
 * What a stored event carries besides its data, metadata and type, at most: schema version, both
 * hashes and the envelope around them (EventStoreDB stores them in the event's metadata).
 */
const ENVELOPE_BYTES = 256;

/** The bytes an event counts for in `MAX_APPEND_BYTES`. */
export function eventBytes(event: { type: string; data: unknown }, metadata: EventMetadata): number {
  return (
    Buffer.byteLength(event.type) +
    Buffer.byteLength(JSON.stringify(event.data)) +
    Buffer.byteLength(JSON.stringify(metadata)) +
    ENVELOPE_BYTES
  );
}

export class AppendTooLargeError extends Error {
  constructor(
    readonly stream: string,
    readonly bytes: number,
  ) {
    super(`The events for ${stream} take ${bytes} bytes; one append holds at most ${MAX_APPEND_BYTES} bytes`);
    this.name = 'AppendTooLargeError';
  }
}

/** Refuses, before anything is written, an append with a part over `MAX_APPEND_BYTES`. */
export function checkAppendSize(parts: readonly StreamAppend[]): void {
  for (const { stream, events, options } of parts) {
    const bytes = events.reduce((total, event) => total + eventBytes(event, options.metadata), 0);
    if (bytes > MAX_APPEND_BYTES) throw new AppendTooLargeError(stream, bytes);
  }
}

/** Items in runs, in order, each of which fits one append by `bytesOf`; an item never splits. */
export function appendRuns<T>(items: readonly T[], bytesOf: (item: T) => number): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = bytesOf(item);
    if (run.length > 0 && bytes + size > MAX_APPEND_BYTES) {
      runs.push(run);
      run = [];
      bytes = 0;
    }
    run.push(item);
    bytes += size;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
