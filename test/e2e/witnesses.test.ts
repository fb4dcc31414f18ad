import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SUITE_CLI } from '../support/built-suite';
import { showErrors } from '../support/child-logs';
import { rewriteHistory } from '../support/rewrite-history';
import {
  runSuiteCli,
  startSuiteProcess,
  stopSuiteProcess,
  type SuiteProcess,
} from '../support/suite-process';
import { openCheckpoint } from '../support/tile-client';
import { tempDir } from '../support/temp-dir';

jest.setTimeout(120_000);

const API_TOKEN = 'witness-api-token-0001';
const PORT = 18_741;
const AUDIT = `http://127.0.0.1:${PORT + 10}`;
const WITNESS_PORT = PORT + 20;
/** A witness named in SUITE_WITNESSES where nothing listens: down. */
const DOWN_PORT = PORT + 21;

let dir: string;
let cleanup: () => void;
let suite: SuiteProcess | undefined;
let witness: { stop(): Promise<void> } | undefined;
let keys: { log: string; one: string; two: string };

const witnessDir = (name: string) => path.join(dir, `witness-${name}`);
const suiteDir = () => path.join(dir, 'suite');
const env = () => ({
  SUITE_DATA_DIR: suiteDir(),
  SUITE_SEED: 'none',
  SUITE_API_TOKEN: API_TOKEN,
  SUITE_WITNESSES: `http://127.0.0.1:${WITNESS_PORT} ${keys.one}, http://127.0.0.1:${DOWN_PORT} ${keys.two}`,
});
const cli = (...args: string[]) => runSuiteCli({ SUITE_DATA_DIR: suiteDir(), SUITE_SEED: 'none' }, ...args);

/** `suite witness` on WITNESS_PORT, once it answers. */
async function startWitness(): Promise<{ stop(): Promise<void> }> {
  const args = [
    'witness',
    '--port',
    String(WITNESS_PORT),
    '--data-dir',
    witnessDir('one'),
    '--log',
    keys.log,
  ];
  const child = spawn(process.execPath, [SUITE_CLI, ...args], {
    env: { ...process.env, SUITE_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  showErrors(child, 'suite witness');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`suite witness exited with ${child.exitCode}`);
    const answered = await fetch(`http://127.0.0.1:${WITNESS_PORT}/add-checkpoint`).catch(() => undefined);
    if (answered?.status === 405) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function writeRequests(count: number) {
  for (let n = 0; n < count; n++) {
    const response = await fetch(`${suite?.base}/api/v1/requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Printer ${n} jams`, status: 'Open', priority: 'Medium' }),
    });
    expect(response.status).toBe(201);
  }
}

interface Health {
  witnesses: { url: string; status: string; cosigned_size: number | null; error?: string }[];
}
const health = async () => (await (await fetch(`${AUDIT}/api/v1/health`)).json()) as Health;

/** The public checkpoint once it covers at least `size` leaves and the first witness has cosigned it. */
async function cosignedCheckpoint(size: number): Promise<string> {
  for (;;) {
    const response = await fetch(`${AUDIT}/api/v1/checkpoint`);
    const note = response.status === 200 ? await response.text() : '';
    const name = keys.one.split('+', 1)[0] as string;
    if (note && openCheckpoint(note, keys.log).size >= size && note.includes(`\u2014 ${name} `)) return note;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const headSize = async () => {
  const response = await fetch(`${AUDIT}/api/v1/checkpoints?limit=1000`);
  return ((await response.json()) as { data: { size: number }[] }).data.at(-1)?.size ?? 0;
};

beforeAll(() => {
  ({ dir, cleanup } = tempDir());
  const key = (...args: string[]) => {
    const result = cli(...args);
    expect(result.status).toBe(0);
    return result.stdout.trim();
  };
  keys = {
    log: key('audit', 'public-key'),
    one: key('witness', 'public-key', '--data-dir', witnessDir('one'), '--name', 'witness.test/one'),
    two: key('witness', 'public-key', '--data-dir', witnessDir('two'), '--name', 'witness.test/two'),
  };
});
afterAll(async () => {
  if (suite) await stopSuiteProcess(suite);
  await witness?.stop();
  cleanup();
});

describe('witnesses', () => {
  it('cosign each new checkpoint once proven consistent; a quorum counts valid cosignatures only', async () => {
    witness = await startWitness();
    suite = await startSuiteProcess(env(), PORT);
    await writeRequests(2);
    const first = openCheckpoint(await cosignedCheckpoint(1), keys.log);
    await writeRequests(3);
    const note = await cosignedCheckpoint(first.size + 1);
    expect(openCheckpoint(note, keys.log).size).toBeGreaterThan(first.size);
    const { witnesses } = await health();
    expect(witnesses[0]).toMatchObject({ status: 'ok', cosigned_size: await headSize() });
    expect(witnesses[1]).toMatchObject({ url: `http://127.0.0.1:${DOWN_PORT}`, status: 'down' });
    await stopSuiteProcess(suite);
    suite = undefined;

    const file = path.join(dir, 'checkpoint');
    writeFileSync(file, note);
    const verify = (...args: string[]) => cli('audit', 'verify', '--against', file, ...args);
    expect(verify('--witness', keys.one, '--quorum', '1')).toMatchObject({ status: 0 });
    const short = verify('--witness', keys.one, '--witness', keys.two, '--quorum', '2');
    expect(short.status).toBe(1);
    expect(short.stdout).toContain(
      'NOT extended: the witnesses: 1 valid cosignature(s) of 2 witness(es), 2 required (witness.test/one valid, witness.test/two absent)',
    );
    // A line in the second witness's name and key id, whose signature is not its own.
    const id = Buffer.from(keys.two.split('+')[1] as string, 'hex');
    const forgedLine = `\u2014 witness.test/two ${Buffer.concat([id, Buffer.alloc(8), randomBytes(64)]).toString('base64')}\n`;
    writeFileSync(file, note + forgedLine);
    const forged = verify('--witness', keys.one, '--witness', keys.two, '--quorum', '2');
    expect(forged.status).toBe(1);
    expect(forged.stdout).toContain('witness.test/two invalid');
    expect(verify('--witness', keys.one, '--witness', keys.two, '--quorum', '1')).toMatchObject({
      status: 0,
    });
    expect(verify('--quorum', '1').stderr).toContain('--quorum counts the --witness keys');
  });

  it('refuses a rewritten log, keeping both checkpoints as evidence, and cosigns nothing of it', async () => {
    const cosignedFile = readdirSync(path.join(witnessDir('one'), 'cosigned'))[0] as string;
    const cosigned = readFileSync(path.join(witnessDir('one'), 'cosigned', cosignedFile), 'utf8');
    // The dishonest operator rewrites an event, and lets the suite grow a new tree over the rewritten
    // log and sign it with the same key.
    rewriteHistory(suiteDir(), 1);
    rmSync(path.join(suiteDir(), 'log-tree.db'));
    suite = await startSuiteProcess(env(), PORT);
    await writeRequests(1);
    let state: Health['witnesses'][number] | undefined;
    while (state?.status !== 'refused') {
      [state] = (await health()).witnesses;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(state.error).toMatch(/^(409|422): /);
    const [evidence] = readdirSync(path.join(witnessDir('one'), 'refused'));
    const text = readFileSync(path.join(witnessDir('one'), 'refused', evidence as string), 'utf8');
    expect(text).toContain(`--- the checkpoint cosigned before ---\n${cosigned}`);
    const submitted = text.slice(text.indexOf('--- the request refused ---\n') + 28);
    const forked = openCheckpoint(submitted.slice(submitted.indexOf('\n\n') + 2), keys.log);
    expect(forked.root.equals(openCheckpoint(cosigned, keys.log).root)).toBe(false);
    expect(readFileSync(path.join(witnessDir('one'), 'cosigned', cosignedFile), 'utf8')).toBe(cosigned);
    const note = await (await fetch(`${AUDIT}/api/v1/checkpoint`)).text();
    expect(note).not.toContain('\u2014 witness.test/one ');
  });
});
