import { createHash } from 'node:crypto';
import { sealedHeader } from '../privacy/sealed-value';
import { definitionFor, schemaAt, type SuiteCatalog } from './catalog';
import type { StoredEvent } from './envelope';
import { readAllUntil, type EventStore } from './event-store';
import { GENESIS_HASH, hashEvent } from './hash-chain';

export interface VerifyProblem {
  stream: string;
  revision: number;
  position: number | null;
  problem: string;
}

export interface VerifyReport {
  ok: boolean;
  events_checked: number;
  streams: number;
  /**
   * SHA-256 over the hashes of every event up to `position`, in position order, each followed by a
   * newline. An auditor who records it can later prove the history up to there is unchanged.
   */
  digest: { position: number; sha256: string };
  problems: VerifyProblem[];
}

export interface VerifyOptions {
  /** Verify the log up to this position only (the digest is then the digest at that position). */
  until?: number;
  onProgress?: (position: number) => void;
}

const PAGE = 5000;

/** What is wrong with one stored event, given the stream as it stood before it; null when nothing. */
function checkEvent(
  catalog: SuiteCatalog,
  event: StoredEvent,
  previous: { revision: number; hash: string },
): string | null {
  const expected = previous.revision + 1;
  if (event.revision > expected) {
    const missing =
      event.revision - 1 > expected
        ? `revisions ${expected}-${event.revision - 1} are`
        : `revision ${expected} is`;
    return `${missing} missing before revision ${event.revision}`;
  }
  if (event.revision < expected)
    return `revision ${event.revision} appears again after revision ${previous.revision}`;
  if (event.prev_hash !== previous.hash) return 'prev_hash does not match the hash of the previous event';
  if (hashEvent(event) !== event.hash) return 'the event was altered: its content does not match its hash';
  const definition = definitionFor(catalog, event);
  if (!definition) return `unknown event type ${event.type} in ${event.stream}`;
  const schema = schemaAt(definition, event.schema_version);
  if (!schema) return `${event.type} has no schema version ${event.schema_version}`;
  const parsed = schema.safeParse(event.data);
  // A sealed value stands for personal data the schema accepted before it was sealed (see src/privacy).
  const issue = parsed.error?.issues.find(({ path }) => !sealedHeader(valueAt(event.data, path)));
  if (issue) {
    return `data does not match ${event.type} v${event.schema_version}: ${issue.path.join('.')} ${issue.message}`;
  }
  return null;
}

const valueAt = (data: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (at, step) =>
      typeof at === 'object' && at !== null ? (at as Record<PropertyKey, unknown>)[step] : undefined,
    data,
  );

/** `checkEvent`, or why the event could not be checked at all (data nested too deep to hash, say). */
function checkedEvent(
  catalog: SuiteCatalog,
  event: StoredEvent,
  previous: { revision: number; hash: string },
): string | null {
  try {
    return checkEvent(catalog, event, previous);
  } catch (error) {
    return `the event cannot be checked: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Verifies the log as stored: every stream's revisions run without gaps, every `prev_hash` names the
 * previous event's hash, every hash matches its event, every event validates against the schema of
 * its version, and no stream lost events after the last one seen. Problems name stream and revision.
 */
export async function verifyLog(
  store: EventStore,
  catalog: SuiteCatalog,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const streams = new Map<string, { revision: number; hash: string }>();
  const problems: VerifyProblem[] = [];
  const digest = createHash('sha256');
  let position = 0;
  let checked = 0;
  for (;;) {
    const page = await readAllUntil(store, position, PAGE, options.until);
    if (page.length === 0) break;
    for (const event of page) {
      const previous = streams.get(event.stream) ?? { revision: -1, hash: GENESIS_HASH };
      const problem = checkedEvent(catalog, event, previous);
      if (problem)
        problems.push({ stream: event.stream, revision: event.revision, position: event.position, problem });
      streams.set(event.stream, { revision: event.revision, hash: event.hash });
      digest.update(`${event.hash}\n`);
      position = event.position;
      checked += 1;
    }
    options.onProgress?.(position);
  }
  if (options.until === undefined) {
    for (const head of await store.streamHeads()) {
      const seen = streams.get(head.stream) ?? { revision: -1, hash: GENESIS_HASH };
      if (seen.revision < head.revision) {
        const missing =
          head.revision > seen.revision + 1
            ? `revisions ${seen.revision + 1}-${head.revision} are`
            : `revision ${head.revision} is`;
        problems.push({
          stream: head.stream,
          revision: seen.revision + 1,
          position: null,
          problem: `${missing} missing at the end of the stream`,
        });
      } else if (seen.hash !== head.hash) {
        problems.push({
          stream: head.stream,
          revision: head.revision,
          position: null,
          problem: 'the last event differs from the recorded stream head',
        });
      }
    }
  }
  return {
    ok: problems.length === 0,
    events_checked: checked,
    streams: streams.size,
    digest: { position, sha256: digest.digest('hex') },
    problems,
  };
}
