import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { diffReadModels } from '../audit/diff';
import { formatEvent, header, type LogFormat } from '../audit/format';
import { upcast } from '../events/catalog';
import { verifyLog } from '../events/verify';
import { isCosignerKey } from '../log-proofs/cosignature';
import { resolveLogSigner } from '../log-proofs/signing-key';
import { suiteCollections, suiteProjectors } from '../main';
import { openExport } from '../private-files';
import { createProjectionRuntime } from '../projections/runtime';
import { openSqliteReadStore } from '../projections/sqlite-read-store';
import { config, dataDirOption, quietSuite, wholeNumber } from './common';
import { printLog, servedLog, withLogFilters, type LogOptions } from './log';
import { progressBar } from './progress';
import { addProofCommands, problemAgainst } from './proofs';
import { escaped, jsonText } from './terminal';

/** A witness's verifier key given to --witness, checked. */
function witnessKey(key: string, previous: string[] = []): string[] {
  if (!isCosignerKey(key)) {
    throw new InvalidArgumentError(`not a witness's verifier key <name>+<key id>+base64(0x04 ‖ key): ${key}`);
  }
  return [...previous, key];
}

/** The witnesses and quorum `verify` asks of the checkpoint, or none. */
function witnessQuorum(options: { against?: string; witness?: string[]; quorum?: number }) {
  const keys = options.witness ?? [];
  if (keys.length === 0) {
    if (options.quorum !== undefined)
      throw new InvalidArgumentError('--quorum counts the --witness keys: give them');
    return undefined;
  }
  if (options.against === undefined)
    throw new InvalidArgumentError('--witness checks the --against checkpoint: give it');
  const quorum = options.quorum ?? keys.length;
  if (quorum < 1 || quorum > keys.length) {
    throw new InvalidArgumentError(`--quorum must be from 1 to the ${keys.length} witness(es) given`);
  }
  return { keys, quorum };
}

/** `suite audit verify`, `public-key`, the proofs' commands, `log`, `export` and `diff`. */
export function addAuditCommands(program: Command): void {
  const audit = program.command('audit').description('offline audit of the event log');

  audit
    .command('verify')
    .description(
      'verify every hash chain, revision and schema; print the digest of the log (exit 1 on any problem)',
    )
    .addOption(dataDirOption())
    .option('--until <position>', 'verify up to this position', wholeNumber)
    .option('--against <checkpoint-file>', 'also prove the log extends this old signed checkpoint')
    .option(
      '--key <verifier-key>',
      'the key that signed it (default: the suite\u2019s own, `suite audit public-key`)',
    )
    .option(
      '--witness <verifier-key>',
      'with --against: a witness whose cosignature counts towards the quorum (repeatable)',
      witnessKey,
    )
    .option(
      '--quorum <count>',
      'with --witness: the valid cosignatures needed (default: every witness)',
      wholeNumber,
    )
    .option('--json', 'print the report as JSON')
    .action(
      async (options: {
        dataDir?: string;
        until?: number;
        against?: string;
        key?: string;
        witness?: string[];
        quorum?: number;
        json?: boolean;
      }) => {
        const witnesses = witnessQuorum(options);
        const suite = await quietSuite(config(options));
        const bar = progressBar('Verifying');
        bar.start(options.until ?? (await suite.storedEvents.headPosition()), 0);
        const report = await verifyLog(suite.storedEvents, suite.catalog, {
          until: options.until,
          onProgress: (position) => bar.update(position),
        });
        bar.stop();
        const against =
          options.against === undefined
            ? undefined
            : {
                checkpoint: options.against,
                problem: await problemAgainst(suite, options.against, options.key, witnesses),
              };
        await suite.close();
        const extended = against === undefined || against.problem === undefined;
        if (options.json) {
          const extension = against && {
            checkpoint: against.checkpoint,
            extended,
            problem: against.problem ?? null,
          };
          console.log(jsonText({ ...report, ...(extension && { against: extension }) }, 2));
        } else {
          console.log(
            `${report.events_checked} events in ${report.streams} streams: ${report.ok ? 'intact' : `${report.problems.length} problem(s)`}`,
          );
          console.log(`digest at position ${report.digest.position}: sha256 ${report.digest.sha256}`);
          for (const problem of report.problems) {
            const at = problem.position ? ` (position ${problem.position})` : '';
            console.log(escaped`${problem.stream} revision ${problem.revision}${at}: ${problem.problem}`);
          }
          if (against) {
            console.log(
              extended
                ? escaped`${against.checkpoint}: the log extends this checkpoint`
                : escaped`${against.checkpoint}: NOT extended: ${against.problem}`,
            );
          }
        }
        process.exitCode = report.ok && extended ? 0 : 1;
      },
    );

  audit
    .command('public-key')
    .description(
      "print the verifier key of the log's signed checkpoints (the signing key is made on first use)",
    )
    .addOption(dataDirOption())
    .action((options: { dataDir?: string }) => console.log(resolveLogSigner(config(options)).verifierKey));

  addProofCommands(audit);

  withLogFilters(audit.command('log'))
    .description('list the log with the audit filters, as a table or NDJSON')
    .option('--limit <count>', 'at most this many events', wholeNumber, Number.MAX_SAFE_INTEGER)
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'ndjson']).default('table'))
    .action((options: LogOptions & { limit: number; format: LogFormat }) => printLog(options));

  withLogFilters(audit.command('export'))
    .description('export the log (or a filtered part) as NDJSON or CSV, with a progress bar')
    .addOption(new Option('--format <format>', 'output format').choices(['ndjson', 'csv']).default('ndjson'))
    .requiredOption('--out <file>', 'file to write')
    .action(async (options: LogOptions & { format: LogFormat; out: string }) => {
      const suite = await quietSuite(config(options));
      const out = createWriteStream(options.out, { fd: openExport(options.out) });
      const first = header(options.format);
      if (first) out.write(`${first}\n`);
      const bar = progressBar('Exporting', 'positions');
      bar.start(options.until ?? (await suite.storedEvents.headPosition()), options.after);
      let count = 0;
      for await (const event of servedLog(suite, options)) {
        if (!out.write(`${formatEvent(event, options.format)}\n`))
          await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        count += 1;
        if (count % 1000 === 0) bar.update(event.position);
      }
      bar.update(bar.getTotal());
      bar.stop();
      await new Promise<void>((resolve) => out.end(() => resolve()));
      await suite.close();
      console.log(`${count} events written to ${options.out}`);
    });

  audit
    .command('diff')
    .description('rebuild every read model into a scratch store and compare it with the live one')
    .addOption(dataDirOption())
    .action(async (options: { dataDir?: string }) => {
      const settings = config(options);
      const live = await quietSuite(settings);
      const scratchDir = mkdtempSync(path.join(tmpdir(), 'suite-diff-'));
      const scratch = openSqliteReadStore(path.join(scratchDir, 'read-models.db'));
      const collections = suiteCollections(live.modules);
      await scratch.defineCollections(collections);
      const projectors = suiteProjectors(live.modules);
      const rebuild = createProjectionRuntime(live.auditEvents, scratch, projectors, {
        onError: (error) => console.error(error),
        upcast: (event) => upcast(live.catalog, event),
      });
      try {
        const bar = progressBar('Rebuilding into a scratch store');
        bar.start(await live.eventStore.headPosition(), 0);
        await rebuild.rebuild((position, head) => bar.update(position, { total: head }));
        bar.stop();
        const differences = await diffReadModels(live.readStore, scratch, collections);
        if (differences.length === 0)
          console.log(`identical: ${collections.length} collections match a rebuild from the log`);
        for (const difference of differences) {
          const fields = difference.fields ? ` (${difference.fields.join(', ')})` : '';
          console.log(escaped`${difference.collection} ${difference.id}: ${difference.kind}${fields}`);
        }
        process.exitCode = differences.length === 0 ? 0 : 1;
      } finally {
        await scratch.close();
        await live.close();
        rmSync(scratchDir, { recursive: true, force: true });
      }
    });
}
