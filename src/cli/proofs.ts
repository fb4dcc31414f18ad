import { quorumProblem } from '../log-proofs/cosignature';
import { readFileSync } from 'node:fs';
import { writeExport } from '../private-files';
import type { Command } from 'commander';
import type { Config } from '../config';
import { bundleVerdict, evidenceBundle, EvidenceError, extensionProblem } from '../log-proofs/evidence';
import { resolveLogSigner } from '../log-proofs/signing-key';
import { cosignedNote, openSqliteTreeStore, treeStoreFile, type TreeStore } from '../log-proofs/tree-store';
import type { Suite } from '../main';
import type { RecordPath } from '../api/audit/records';
import { RECORD_EVIDENCE_FORMAT } from '../log-proofs/record-evidence';
import {
  disclosedLine,
  printDisclosed,
  proveRecord,
  recordArgument,
  verifyRecordBundle,
} from './record-proofs';
import { config, dataDirOption, quietSuite, wholeNumber } from './common';
import { DISCLOSABLE } from '../privacy/disclosed-keys';
import { escapeControls, escaped } from './terminal';

/** The tree the suite keeps in the data directory, read only; undefined (and a message) if there is none. */
function keptTree(settings: Config): TreeStore | undefined {
  const store = openSqliteTreeStore(treeStoreFile(settings.dataDir), { readOnly: true });
  if (!store) {
    console.error(`No log tree in ${settings.dataDir}: the suite signs checkpoints once it has started.`);
    process.exitCode = 1;
  }
  return store;
}

/**
 * Whether the log extends the checkpoint in `file`, signed by `verifierKey` (default: the suite's own
 * key), and cosigned by a quorum of the witnesses when they are given: what failed, or nothing.
 */
export async function problemAgainst(
  suite: Suite,
  file: string,
  verifierKey?: string,
  witnesses?: { keys: readonly string[]; quorum: number },
): Promise<string | undefined> {
  let note: string;
  try {
    note = readFileSync(file, 'utf8');
  } catch (error) {
    return `the checkpoint file: ${(error as Error).message}`;
  }
  try {
    const short = witnesses && quorumProblem(note, witnesses.keys, witnesses.quorum);
    if (short) return `the witnesses: ${short}`;
  } catch (error) {
    return `the checkpoint: ${(error as Error).message}`;
  }
  const store = openSqliteTreeStore(treeStoreFile(suite.config.dataDir), { readOnly: true });
  if (!store) return `no log tree in ${suite.config.dataDir}: the suite has signed no checkpoint here`;
  try {
    const key = verifierKey ?? resolveLogSigner(suite.config).verifierKey;
    return await extensionProblem(note, key, store, suite.storedEvents);
  } finally {
    store.close();
  }
}

interface ProveOptions {
  dataDir?: string;
  position?: number;
  record?: RecordPath;
  treeSize?: number;
  disclose?: string;
  out: string;
}

/** `suite audit checkpoint`, `suite audit prove` and `suite audit verify-bundle`. */
export function addProofCommands(audit: Command): void {
  audit
    .command('checkpoint')
    .description(
      "print the latest signed checkpoint (a C2SP tlog-checkpoint in a signed note), with the witnesses' cosignatures",
    )
    .addOption(dataDirOption())
    .action((options: { dataDir?: string }) => {
      const store = keptTree(config(options));
      if (!store) return;
      const latest = store.latestCheckpoint();
      store.close();
      if (latest) process.stdout.write(cosignedNote(latest));
      else {
        console.error('No checkpoint has been signed yet.');
        process.exitCode = 1;
      }
    });

  audit
    .command('prove')
    .description(
      'write the evidence that an event, or every event of a record\u2019s story, is in the log: the events, their inclusion proofs, a signed checkpoint',
    )
    .addOption(dataDirOption())
    .option('--position <position>', 'the event', wholeNumber)
    .option('--record <module/resource/id>', 'the record whose story to prove (hrm/leave/7)', recordArgument)
    .option('--tree-size <size>', 'the size of a kept checkpoint (default: the latest)', wholeNumber)
    .option(
      '--disclose <what>',
      '`personal`: add the keys of the subjects whose personal values the event holds (or that they were erased)',
    )
    .requiredOption('--out <file>', 'the bundle to write (JSON)')
    .action(async (options: ProveOptions, command: Command) => {
      if ((options.position === undefined) === (options.record === undefined)) {
        command.error('error: give exactly one of --position and --record');
      }
      if (options.disclose !== undefined && !DISCLOSABLE.includes(options.disclose)) {
        console.error(
          escaped`--disclose ${options.disclose}: only ${DISCLOSABLE.join(', ')} can be disclosed`,
        );
        process.exitCode = 1;
        return;
      }
      const settings = config(options);
      const store = keptTree(settings);
      if (!store) return;
      const suite = await quietSuite(settings);
      try {
        if (options.record) return await proveRecord(suite, store, { ...options, record: options.record });
        const keys = options.disclose === undefined ? undefined : suite.subjectKeys;
        const { treeSize, out } = options;
        const position = options.position as number;
        const bundle = await evidenceBundle(store, suite.storedEvents, position, treeSize, keys);
        writeExport(out, `${JSON.stringify(bundle, null, 2)}\n`);
        console.log(`Evidence of position ${position} in the tree of ${bundle.tree_size} written to ${out}`);
        printDisclosed(bundle.disclosed);
      } catch (error) {
        if (!(error instanceof EvidenceError)) throw error;
        console.error(escapeControls(error.message));
        process.exitCode = 1;
      } finally {
        store.close();
        await suite.close();
      }
    });

  audit
    .command('verify-bundle')
    .description(
      'verify an evidence bundle offline, with nothing but the file and the verifier key; print the personal values its disclosed keys open',
    )
    .argument('<file>', 'the bundle `suite audit prove` wrote')
    .requiredOption('--key <verifier-key>', 'the log\u2019s verifier key (`suite audit public-key`)')
    .action((file: string, options: { key: string }) => {
      let verdict: ReturnType<typeof bundleVerdict>;
      try {
        const text = readFileSync(file, 'utf8');
        const bundle: unknown = JSON.parse(text);
        if ((bundle as { format?: unknown } | null)?.format === RECORD_EVIDENCE_FORMAT) {
          return verifyRecordBundle(text, options.key);
        }
        verdict = bundleVerdict(bundle, options.key);
      } catch (error) {
        verdict = {
          problem: `the file: ${error instanceof Error ? error.message : String(error)}`,
          disclosed: [],
        };
      }
      const { problem, disclosed } = verdict;
      if (problem === undefined) {
        console.log('valid');
        for (const value of disclosed) console.log(disclosedLine(value));
      } else {
        console.log(escaped`invalid: ${problem}`);
        process.exitCode = 1;
      }
    });
}
