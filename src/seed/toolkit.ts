import type { CommandContext } from '../commands/context';
import type { SeedContext } from './context';
import type { SeededRandom } from './random';

/** Commands started together; their appends reach the event store in one turn of the event loop. */
const GROUP_SIZE = 250;

/**
 * Writes independent commands of the demo data in groups: the commands of a group run concurrently,
 * so the event store commits their appends together (one group commit instead of one fsync each).
 * Each command keeps its own time and metadata. Commands of one group must not depend on each other
 * (a record and its parent go in different calls); items run, and take their ids, in the given order.
 */
export async function writeInGroups<Item, Result>(
  seed: SeedContext,
  items: readonly Item[],
  at: (item: Item) => Date,
  write: (commands: CommandContext, item: Item) => Promise<Result>,
): Promise<Result[]> {
  const results: Result[] = [];
  for (let start = 0; start < items.length; start += GROUP_SIZE) {
    const group = items.slice(start, start + GROUP_SIZE).map((item) => {
      const time = at(item);
      seed.at(time);
      const metadata = seed.commands.metadata();
      const commands: CommandContext = {
        ...seed.commands,
        clock: { now: () => time },
        metadata: () => metadata,
      };
      return write(commands, item);
    });
    results.push(...(await Promise.all(group)));
  }
  return results;
}

/** `count` distinct items in a random order (a partial Fisher-Yates shuffle). */
export function sample<T>(random: SeededRandom, items: readonly T[], count = items.length): T[] {
  const pool = [...items];
  const taken: T[] = [];
  while (taken.length < count && pool.length > 0) {
    taken.push(pool.splice(random.int(0, pool.length - 1), 1)[0] as T);
  }
  return taken;
}

/** `1250000` -> `1,250,000`, the same on every machine (no locale data involved). */
export function thousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A later command of the demo data: at its time, on the record named by `key`. */
export interface TimelineStep {
  at: Date;
  key: string;
  /** Other records whose state the decision reads (a milestone's dependencies). */
  reads?: readonly string[];
  write: (commands: CommandContext) => Promise<unknown>;
}

/**
 * Writes steps in time order. Consecutive steps on different records are written together as one
 * group (see `writeInGroups`); a step on a record already in the group, or reading one, starts the
 * next group, so every decision sees the steps before it.
 */
export async function writeTimeline(seed: SeedContext, steps: readonly TimelineStep[]): Promise<void> {
  const ordered = [...steps].sort((a, b) => a.at.getTime() - b.at.getTime());
  let group: TimelineStep[] = [];
  let keys = new Set<string>();
  const flush = async () => {
    await writeInGroups(
      seed,
      group,
      (step) => step.at,
      (commands, step) => step.write(commands),
    );
    group = [];
    keys = new Set();
  };
  for (const step of ordered) {
    const depends = keys.has(step.key) || (step.reads ?? []).some((key) => keys.has(key));
    if (depends || group.length === GROUP_SIZE) await flush();
    group.push(step);
    keys.add(step.key);
  }
  await flush();
}

/** `Café Nord (en)` -> `cafe-nord-en`: ASCII letters and digits, words joined by `separator`. */
export function slugify(text: string, separator = '-'): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join(separator);
}
