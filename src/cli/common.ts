import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { InvalidArgumentError, Option } from 'commander';
import pino from 'pino';
import { isoTimestamp } from '../clock';
import { DomainError } from '../commands/errors';
import type { CommandContext } from '../commands/context';
import { loadConfig, type Config } from '../config';
import { newEventId } from '../events/event-ids';
import type { EventStore } from '../events/event-store';
import { openSuite, type OpenOptions, type Suite } from '../main';
import { escapeControls } from './terminal';

export function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

export const dataDirOption = () =>
  new Option('--data-dir <dir>', 'data directory (overrides SUITE_DATA_DIR)');

/** The configuration, with `--data-dir` over SUITE_DATA_DIR. */
export function config(options: { dataDir?: string }): Config {
  return loadConfig(options.dataDir ? { ...process.env, SUITE_DATA_DIR: options.dataDir } : process.env);
}

/** The stores, for a command that works on them: it logs only warnings, on stderr (stdout is its answer). */
export const quietSuite = (settings: Config, options: Omit<OpenOptions, 'logger'> = {}): Promise<Suite> =>
  openSuite(settings, { ...options, logger: pino({ level: 'warn' }, pino.destination(2)) });

const COUNT_PAGE = 10_000;

/** The events of the log after `after`, counted: positions are no counts (EventStoreDB's are offsets). */
export async function eventsAfter(eventStore: EventStore, after: number): Promise<number> {
  let count = 0;
  for (let from = after; ;) {
    const page = await eventStore.readAll({ after: from, limit: COUNT_PAGE });
    count += page.length;
    if (page.length < COUNT_PAGE) return count;
    from = page[page.length - 1]!.position;
  }
}

/** The operator, as the OS names them; a user the system has no name for (a container's bare uid) by uid. */
function operator(): string {
  try {
    return `os:${userInfo().username}`;
  } catch {
    return `os:uid-${process.getuid?.() ?? 'unknown'}`;
  }
}

/** The command context of a command an operator runs: the events it appends name them (`os:<user>`). */
export function operatorContext(suite: Pick<Suite, 'eventStore' | 'ids' | 'clock'>): CommandContext {
  const requestId = `cli-${randomUUID()}`;
  const metadata = {
    actor: operator(),
    request_id: requestId,
    correlation_id: requestId,
    causation_id: null,
    occurred_at: isoTimestamp(suite.clock.now()),
  };
  const { eventStore, ids, clock } = suite;
  return { eventStore, ids, clock, eventId: newEventId, metadata: () => metadata };
}

/** Runs a command on the stores; a refusal (a domain error) is printed on stderr and ends the process with 1. */
export async function withStores(options: { dataDir?: string }, work: (suite: Suite) => Promise<void>) {
  const suite = await quietSuite(config(options));
  try {
    await work(suite);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    console.error(escapeControls(error.message));
    process.exitCode = 1;
  } finally {
    await suite.close();
  }
}

/**
 * Rows of cells as lines of aligned columns, two spaces apart (the first row is the header), each
 * cell's control characters escaped: a value cannot forge a row.
 */
export function alignedColumns(cells: readonly (readonly string[])[]): string[] {
  const rows = cells.map((row) => row.map(escapeControls));
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}
