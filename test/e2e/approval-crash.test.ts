import path from 'node:path';
import type { StoredEvent } from '../../src/events/envelope';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { runSuiteCli, startSuiteProcess, stopSuiteProcess } from '../support/suite-process';
import { tempDir } from '../support/temp-dir';

jest.setTimeout(120_000);

const TOKEN = 'approval-crash-token';
const PORT = 33_281;
const ROUTE = 'POST /api/v1/requests';

async function logOf(dir: string): Promise<StoredEvent[]> {
  const store = openSqliteEventStore(path.join(dir, 'events.db'));
  try {
    return await store.readAll({ after: 0, limit: 1_000_000 });
  } finally {
    await store.close();
  }
}

/** Proposals whose approval is in the log without an outcome: the process died between the two. */
function approvedOnly(events: readonly StoredEvent[]): string[] {
  const approved = new Set<string>();
  for (const event of events) {
    const id = (event.data as { id?: string }).id as string;
    if (event.type === 'ChangeApproved') approved.add(id);
    if (event.type === 'ChangeApplied' || event.type === 'ChangeFailed') approved.delete(id);
  }
  return [...approved];
}

function key(env: Record<string, string>, dir: string, role: string, person: string): string {
  const created = runSuiteCli(
    env,
    'keys',
    'create',
    '--data-dir',
    dir,
    '--name',
    person,
    '--role',
    role,
    '--person',
    person,
  );
  expect(created.status).toBe(0);
  return (JSON.parse(created.stdout) as { token: string }).token;
}

const json = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

describe('a process killed between an approval and its write', () => {
  it('leaves the proposal to be finished after the restart, applied exactly once', async () => {
    const { dir, cleanup } = tempDir();
    const env = { SUITE_DATA_DIR: dir, SUITE_API_TOKEN: TOKEN, SUITE_SEED: 'none' };
    try {
      const writer = key(env, dir, 'esm:writer', 'wanda');
      const approver = key(env, dir, 'esm:approver', 'arthur');
      expect(runSuiteCli(env, 'policy', 'require-approval', 'esm', ROUTE, '--data-dir', dir).status).toBe(0);

      let stranded: string[] = [];
      // Approvals race the kill; tried until the kill lands between an approval and its write.
      for (let round = 0; stranded.length === 0 && round < 5; round++) {
        const suite = await startSuiteProcess(env, PORT);
        const proposals: string[] = [];
        for (let n = 0; n < 25; n++) {
          const res = await fetch(`${suite.base}/api/v1/requests`, {
            method: 'POST',
            headers: json(writer),
            body: JSON.stringify({ title: `Crash ${round}-${n}`, status: 'Open', priority: 'Low' }),
          });
          expect(res.status).toBe(202);
          proposals.push(((await res.json()) as { id: string }).id);
        }
        let answered = 0;
        const approvals = proposals.map((id) =>
          fetch(`${suite.base}/api/v1/proposals/${id}/approve`, {
            method: 'POST',
            headers: json(approver),
          }).then(
            () => {
              answered += 1;
              if (answered === 3) suite.child.kill('SIGKILL');
            },
            () => undefined,
          ),
        );
        await Promise.all(approvals);
        await suite.exited;
        stranded = approvedOnly(await logOf(dir));
      }
      expect(stranded.length).toBeGreaterThan(0);

      const restarted = await startSuiteProcess(env, PORT);
      const until = Date.now() + 60_000;
      let left = stranded.length;
      while (left > 0 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const res = await fetch(`${restarted.base}/api/v1/proposals?status=approved`, {
          headers: json(approver),
        });
        left = ((await res.json()) as { meta: { total: number } }).meta.total;
      }
      expect(left).toBe(0);
      expect(await stopSuiteProcess(restarted)).toBe(0);

      const events = await logOf(dir);
      expect(approvedOnly(events)).toEqual([]);
      for (const id of stranded) {
        const outcome = events.filter(
          (event) => event.stream === `approvals.proposal-${id}` && event.type === 'ChangeApplied',
        );
        const writes = events.filter(
          (event) => event.type === 'RequestSubmitted' && event.metadata.proposal_id === id,
        );
        expect([outcome.length, writes.length]).toEqual([1, 1]);
        expect(writes[0]?.metadata).toMatchObject({ approver_person: 'arthur', person: 'wanda' });
      }
    } finally {
      cleanup();
    }
  });
});
