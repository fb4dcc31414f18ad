import type { Command } from 'commander';
import { formatEvent, header, type LogFormat } from '../audit/format';
import type { StoredEvent } from '../events/envelope';
import type { EventStore, LogQuery } from '../events/event-store';
import { unknownFilterValues, unknownValueMessage } from '../events/log-filter';
import type { Suite } from '../main';
import { servedEvents, type ServedEvent } from '../privacy/served-events';
import { config, dataDirOption, quietSuite, wholeNumber } from './common';

/** A comma-separated list, added to the values the option was given before (it may be repeated). */
function list(value: string, previous: readonly string[] = []): readonly string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  ];
}

/** The log filters shared by `suite events`, `suite audit log` and `suite audit export`. */
export function withLogFilters(command: Command): Command {
  return command
    .addOption(dataDirOption())
    .option('--module <ids>', 'only events of these modules (e.g. esm, or esm,crm; repeatable)', list)
    .option('--stream <streams>', 'only these streams (e.g. esm.request-42; comma list, repeatable)', list)
    .option('--type <types>', 'only these event types (e.g. RequestSubmitted; comma list, repeatable)', list)
    .option('--actor <actor>', 'only events caused by this actor')
    .option('--organisation <id>', 'only events of this organisation')
    .option('--from <time>', 'occurred at or after this ISO time')
    .option('--to <time>', 'occurred at or before this ISO time')
    .option('--after <position>', 'start after this global position', wholeNumber, 0)
    .option('--until <position>', 'stop at this global position', wholeNumber);
}

const PAGE = 1000;

export type LogOptions = Omit<LogQuery, 'limit'> & { dataDir?: string };

/** The pages of the events the filters select, read from `store`; a filter value the suite's log cannot hold is refused. */
async function* logPages(
  suite: Suite,
  store: EventStore,
  options: LogOptions,
): AsyncGenerator<StoredEvent[]> {
  const { module, stream, type, actor, organisation, from, to, until } = options;
  const query = { module, stream, type, actor, organisation, from, to, until };
  const [unknown] = unknownFilterValues(query, suite.catalog);
  if (unknown) throw new Error(`--${unknown.filter}: ${unknownValueMessage(unknown, suite.catalog)}`);
  for (let after = options.after; ;) {
    const page = await store.queryLog({ ...query, after, limit: PAGE });
    if (page.length > 0) yield page;
    if (page.length < PAGE) return;
    after = (page[page.length - 1] as StoredEvent).position;
  }
}

/** The events the filters select, read page by page, their personal values opened. */
export async function* filteredLog(suite: Suite, options: LogOptions): AsyncGenerator<StoredEvent> {
  for await (const page of logPages(suite, suite.auditEvents, options)) yield* page;
}

/**
 * The events the filters select, read page by page from the log as stored, each with its personal
 * values opened beside (`ServedEvent`): what `suite events` and `suite audit log|export` show.
 */
export async function* servedLog(suite: Suite, options: LogOptions): AsyncGenerator<ServedEvent> {
  for await (const page of logPages(suite, suite.storedEvents, options)) {
    yield* await servedEvents(page, suite.subjectKeys);
  }
}

/** Prints the events the filters select, at most `limit` of them. */
export async function printLog(options: LogOptions & { limit: number; format: LogFormat }): Promise<void> {
  const suite = await quietSuite(config(options));
  const first = header(options.format);
  if (first) console.log(first);
  let shown = 0;
  for await (const event of servedLog(suite, options)) {
    if (shown++ >= options.limit) break;
    console.log(formatEvent(event, options.format));
  }
  await suite.close();
}

/** `suite events`. */
export function addEventsCommand(program: Command): void {
  withLogFilters(program.command('events'))
    .description('list the event log: position, time, stream, type, actor (same as `suite audit log`)')
    .option('--limit <count>', 'at most this many events', wholeNumber, 100)
    .option('--json', 'one JSON envelope per line (NDJSON)')
    .action((options: LogOptions & { limit: number; json?: boolean }) =>
      printLog({ ...options, format: options.json ? 'ndjson' : 'table' }),
    );
}
