import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { verifyStreamChain } from '../../src/events/hash-chain';
import type { StoredEvent } from '../../src/events/envelope';
import { startSuiteProcess } from '../support/suite-process';
import { tempDir } from '../support/temp-dir';
import { SUITE_CLI } from '../support/built-suite';

jest.setTimeout(60_000);

const TOKEN = 'crash-test-token';
const PORT = 18_481;

async function post(base: string, title: string) {
  const response = await fetch(`${base}/api/v1/requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title, status: 'Open', priority: 'Medium' }),
  });
  return { status: response.status, body: (await response.json()) as { id: number } };
}

async function verifyAllChains(file: string): Promise<number> {
  const store = openSqliteEventStore(file);
  const streams = new Map<string, StoredEvent[]>();
  const events = await store.readAll({ after: 0, limit: 1_000_000 });
  for (const event of events) streams.set(event.stream, [...(streams.get(event.stream) ?? []), event]);
  await store.close();
  for (const stream of streams.values()) expect(verifyStreamChain(stream)).toBeNull();
  return events.length;
}

describe('killing the process', () => {
  it('loses no acknowledged write: after SIGKILL and restart every 201 is there and the chains verify', async () => {
    const { dir, cleanup } = tempDir();
    const env = { SUITE_DATA_DIR: dir, SUITE_API_TOKEN: TOKEN, SUITE_SEED: 'none' };
    try {
      const first = await startSuiteProcess(env, PORT);
      const acknowledged: { id: number }[] = [];
      // Writes keep arriving; the process is killed the moment the 20th is acknowledged.
      const inFlight = Array.from({ length: 60 }, (_, n) =>
        post(first.base, `Crash test ${n}`).then(
          (answer) => {
            if (answer.status !== 201) throw new Error(`unexpected ${answer.status}`);
            acknowledged.push(answer.body);
            if (acknowledged.length === 20) first.child.kill('SIGKILL');
          },
          () => undefined,
        ),
      );
      await Promise.all(inFlight);
      await first.exited;
      expect(acknowledged.length).toBeGreaterThanOrEqual(20);

      const second = await startSuiteProcess(env, PORT);
      for (const written of acknowledged) {
        const response = await fetch(`${second.base}/api/v1/requests/${written.id}`);
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual(written);
      }
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      expect(await verifyAllChains(path.join(dir, 'events.db'))).toBeGreaterThanOrEqual(acknowledged.length);
      // Nothing half-applied: the read models the restarted process kept equal a rebuild from the log.
      const diff = spawnSync(process.execPath, [SUITE_CLI, 'audit', 'diff', '--data-dir', dir], {
        env: { ...process.env, ...env, SUITE_LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      });
      expect(diff.stdout).toMatch(/^identical: \d+ collections match a rebuild from the log/m);
      expect(diff.status).toBe(0);
    } finally {
      cleanup();
    }
  });
});
