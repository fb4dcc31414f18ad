import path from 'node:path';
import Database from 'better-sqlite3';
import type { StoredEvent } from '../../src/events/envelope';
import { GENESIS_HASH, hashEvent } from '../../src/events/hash-chain';

/**
 * What a dishonest operator would do to a stopped suite's data directory: change an event's data and
 * recompute its stream's hash chain, so that `suite audit verify` still says intact.
 */
export function rewriteHistory(dir: string, position: number): void {
  const db = new Database(path.join(dir, 'events.db'));
  const { stream } = db.prepare('SELECT stream FROM events WHERE position = ?').get(position) as {
    stream: string;
  };
  const rows = db.prepare('SELECT * FROM events WHERE stream = ? ORDER BY revision').all(stream) as Record<
    string,
    string | number
  >[];
  let prevHash = GENESIS_HASH;
  for (const row of rows) {
    const event = {
      ...row,
      data: JSON.parse(row.data as string),
      metadata: JSON.parse(row.metadata as string),
    };
    if (row.position === position) event.data = { ...event.data, title: 'Nothing ever happened' };
    const hash = hashEvent({ ...(event as unknown as StoredEvent), prev_hash: prevHash });
    db.prepare('UPDATE events SET data = ?, prev_hash = ?, hash = ? WHERE position = ?').run(
      JSON.stringify(event.data),
      prevHash,
      hash,
      row.position,
    );
    prevHash = hash;
  }
  db.prepare('UPDATE streams SET hash = ? WHERE stream = ?').run(prevHash, stream);
  db.close();
}
