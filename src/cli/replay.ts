import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { copyLog, type ReplayCut } from '../audit/replay';
import { parseIsoTime } from '../clock';
import type { EventStore } from '../events/event-store';
import { positionRecordedBy } from '../events/recording-time';
import { config, quietSuite } from './common';
import { progressBar } from './progress';

interface ReplayOptions {
  until?: string;
  validUntil?: string;
  since?: string;
  dataDir: string;
  from?: string;
}

function timeOption(name: string, text: string): Date {
  const time = parseIsoTime(text);
  if (!time) throw new Error(`${name}: ${text} is no UTC date (YYYY-MM-DD) or time (YYYY-MM-DDTHH:MM:SSZ)`);
  return time;
}

/** The position a `--since` names: the one given, or the last recorded by the time given. */
async function sinceOf(since: string | undefined, log: EventStore): Promise<number | undefined> {
  if (since === undefined) return undefined;
  return /^\d+$/.test(since) ? Number(since) : positionRecordedBy(log, timeOption('--since', since));
}

/** The cut the options ask for, and how the summary names it. */
async function cutOf(options: ReplayOptions, log: EventStore): Promise<{ cut: ReplayCut; named: string }> {
  const { cut, named } = await endOf(options, log);
  const since = await sinceOf(options.since, log);
  if (since === undefined) return { cut, named };
  const window = `the records written after position ${since}`;
  return { cut: { ...cut, since }, named: named ? `${named}, ${window}` : window };
}

/** Where the copy ends, and how the summary names it. */
async function endOf(options: ReplayOptions, log: EventStore): Promise<{ cut: ReplayCut; named: string }> {
  if ((options.until === undefined) === (options.validUntil === undefined)) {
    throw new Error(
      'Give exactly one of --until (recording time or position) and --valid-until (business time)',
    );
  }
  if (options.validUntil !== undefined) {
    timeOption('--valid-until', options.validUntil);
    return { cut: { validUntil: options.validUntil }, named: `valid until ${options.validUntil}` };
  }
  const until = options.until as string;
  if (/^\d+$/.test(until)) {
    const recorded = (await log.eventAt(Number(until)))?.metadata.recorded_at;
    return { cut: { until: Number(until) }, named: recorded ? `recorded by ${recorded}` : '' };
  }
  const position = await positionRecordedBy(log, timeOption('--until', until));
  return { cut: { until: position }, named: `recorded by ${until}` };
}

/** `suite replay`. */
export function addReplayCommand(program: Command): void {
  program
    .command('replay')
    .description('write point-in-time read models (and the log up to then) into an empty data directory')
    .option(
      '--until <position|time>',
      'recording time: the log up to a global position, or as recorded by an ISO 8601 UTC time',
    )
    .option(
      '--valid-until <time>',
      'business time: the events that occurred at or before an ISO 8601 UTC time, in log order',
    )
    .option(
      '--since <position|time>',
      'a recent window: only the records with an event after a global position, or recorded after an ISO 8601 UTC time, each copied whole up to the cut',
    )
    .requiredOption('--data-dir <dir>', 'the new data directory to write')
    .option('--from <dir>', 'the data directory holding the log (default: SUITE_DATA_DIR)')
    .action(async (options: ReplayOptions) => {
      const source = config({ dataDir: options.from });
      const target = config({ dataDir: options.dataDir });
      if (source.dataDir === target.dataDir)
        throw new Error('--data-dir must be another directory than the log');
      if (existsSync(path.join(target.dataDir, 'events.db')))
        throw new Error(`${target.dataDir} already holds a store`);
      const from = await quietSuite(source);
      const { cut, named } = await cutOf(options, from.storedEvents);
      const to = await quietSuite(target);
      const bar = progressBar('Copying the log');
      bar.start('until' in cut ? cut.until : await from.storedEvents.headPosition(), 0);
      const copied = await copyLog(from.storedEvents, to.storedEvents, cut, (position) =>
        bar.update(position),
      );
      bar.stop();
      // The copy is sealed as the log is: its personal data reads with the keys there are (none of the erased).
      await to.subjectKeys.keep(await from.subjectKeys.allKeys());
      await to.runtime.start();
      const upTo = 'until' in cut ? [`up to position ${cut.until}`] : [];
      console.log([`${copied.copied} events copied`, ...upTo, ...(named ? [named] : [])].join(', '));
      console.log(`Read models written to ${target.dataDir}; serve them with:`);
      console.log(`  suite start --data-dir ${target.dataDir} --read-only`);
      await to.close();
      await from.close();
    });
}
