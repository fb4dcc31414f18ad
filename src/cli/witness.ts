import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { createLogger } from '../api/kit/logging';
import { cosigner, generateCosignerKey } from '../log-proofs/cosignature';
import { keepOnce, readKept } from '../kept-file';
import { NoteError, verifier } from '../log-proofs/note';
import { ensurePrivateDir } from '../private-files';
import { closeServer, listen } from '../serving/ports';
import { serveUntilStopped } from '../serving/process';
import { witnessHandler } from '../witness/server';
import { fileWitnessState } from '../witness/witness-state';
import { wholeNumber } from './common';

const KEY_FILE = 'witness-key';
const DEFAULT_PORT = 8095;

interface KeyOptions {
  dataDir: string;
  name: string;
}

/** The witness's key: SUITE_WITNESS_KEY, or one named `name` generated into its directory on first use. */
function witnessKey({ dataDir, name }: KeyOptions): string {
  const given = process.env.SUITE_WITNESS_KEY;
  if (given) return given;
  const file = path.join(dataDir, KEY_FILE);
  const kept = readKept(file);
  if (kept !== undefined) return kept;
  ensurePrivateDir(dataDir);
  const key = generateCosignerKey(name);
  return keepOnce(file, key) ? key : (readKept(file) as string);
}

/** The witness's cosigner; a key that is not a witness key stops the command, without being repeated. */
function witnessCosigner(options: KeyOptions) {
  try {
    return cosigner(witnessKey(options));
  } catch (error) {
    if (!(error instanceof NoteError)) throw error;
    throw new InvalidArgumentError(
      'the witness key (SUITE_WITNESS_KEY or <data dir>/witness-key) is not PRIVATE+KEY+<name>+<key id>+base64(0x04 ‖ seed)',
    );
  }
}

/** A log's verifier key, checked; the logs a witness trusts are named by their keys' names, their origins. */
function logKey(key: string, previous: string[] = []): string[] {
  try {
    verifier(key);
  } catch {
    throw new InvalidArgumentError(`not a log's verifier key <name>+<key id>+base64(0x01 ‖ key): ${key}`);
  }
  return [...previous, key];
}

function trustedLogs(keys: readonly string[]): Map<string, string[]> {
  const logs = new Map<string, string[]>();
  for (const key of keys) {
    const origin = key.slice(0, key.indexOf('+'));
    logs.set(origin, [...(logs.get(origin) ?? []), key]);
  }
  return logs;
}

const envLogs = () =>
  (process.env.SUITE_WITNESS_LOGS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '')
    .reduce<string[]>((keys, key) => logKey(key, keys), []);

const dataDirOption = (command: Command) =>
  command
    .option(
      '--data-dir <dir>',
      'where the witness keeps its key, state and evidence',
      process.env.SUITE_WITNESS_DIR ?? 'witness',
    )
    .option(
      '--name <name>',
      'the name of a key generated on first use',
      process.env.SUITE_WITNESS_NAME ?? 'suite.local/witness',
    );

/** `suite witness`: a C2SP tlog-witness; `suite witness public-key`: its verifier key. */
export function addWitnessCommands(program: Command): void {
  const witness = dataDirOption(
    program
      .command('witness')
      .description(
        'run a witness (C2SP tlog-witness): POST /add-checkpoint cosigns the checkpoints of the logs it trusts, once proven consistent with the last it cosigned, and keeps any fork as evidence',
      ),
  )
    .option(
      '--log <verifier-key>',
      'a log to witness, by its verifier key (repeatable; SUITE_WITNESS_LOGS: comma-separated)',
      logKey,
    )
    .option('--port <port>', `port (SUITE_WITNESS_PORT, default ${DEFAULT_PORT})`, wholeNumber)
    .option('--host <host>', 'address to listen on (SUITE_HOST, default 127.0.0.1)')
    .action(async (options: KeyOptions & { log?: string[]; port?: number; host?: string }) => {
      const logger = createLogger(process.env.SUITE_LOG_LEVEL ?? 'info');
      const keys = options.log ?? envLogs();
      if (keys.length === 0) throw new InvalidArgumentError('name the logs to witness: --log <verifier key>');
      const handler = witnessHandler(
        {
          logs: trustedLogs(keys),
          cosigner: witnessCosigner(options),
          state: fileWitnessState(options.dataDir),
          now: () => new Date(),
        },
        logger,
      );
      const port = options.port ?? Number(process.env.SUITE_WITNESS_PORT ?? DEFAULT_PORT);
      const host = options.host ?? process.env.SUITE_HOST ?? '127.0.0.1';
      const server = await listen(handler, port, host);
      const { verifierKey } = witnessCosigner(options);
      logger.info(
        {
          url: `http://${host}:${port}/add-checkpoint`,
          key: verifierKey,
          logs: [...trustedLogs(keys).keys()],
        },
        'witness listening',
      );
      serveUntilStopped(logger, { stop: () => closeServer(server, { interruptActive: false }) });
    });

  dataDirOption(
    witness
      .command('public-key')
      .description("print the witness's verifier key (its key is made on first use)"),
    // The options are the parent's too, which takes them wherever they are given.
  ).action((_options, command: Command) =>
    console.log(witnessCosigner(command.optsWithGlobals<KeyOptions>()).verifierKey),
  );
}
