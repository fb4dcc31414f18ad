import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { formatEvent, header } from '../../src/audit/format';
import type { StoredEvent } from '../../src/events/envelope';
import { suiteCollections } from '../../src/main';
import { auditor, PERSONAL_MODULES, readerOf, serverOf, type Running } from './erasure-model-suite';
import type { Person } from './erasure-model-writes';

/**
 * Where the erasure model looks for personal values after every step: every answer of the APIs (each
 * list, each subject's record and history, `q=` with its values, the proposals, the audit log), every
 * read model, every file under the data directory (raw bytes, any case), an export of the log as
 * `suite audit export` writes it (NDJSON and CSV), and the request log.
 */

const lower = (text: string) => text.toLowerCase();
const LIMIT = 200;

/** The files under `dir` as lower-cased latin1 text, by name. */
export function filesOf(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesOf(file);
    return [{ file, text: lower(readFileSync(file).toString('latin1')) }];
  });
}

/** The list routes of a module: one per resource, and its proposals. */
const listsOf = (module: (typeof PERSONAL_MODULES)[number]) => [
  ...module.resources.map(({ path: resource }) => `/api/v1/${resource}`),
  '/api/v1/proposals',
];

/** The whole log as `suite audit export --format ndjson|csv` writes it, into a file of `dir`. */
async function exportLog(run: Running, dir: string, format: 'ndjson' | 'csv'): Promise<string> {
  const lines: string[] = [];
  const first = header(format);
  if (first) lines.push(first);
  for (let after = 0; ;) {
    const page: StoredEvent[] = await run.suite.auditEvents.queryLog({ after, limit: 1000 });
    lines.push(...page.map((event) => formatEvent(event, format)));
    if (page.length < 1000) break;
    after = (page.at(-1) as StoredEvent).position;
  }
  const file = path.join(dir, `export.${format}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return readFileSync(file, 'utf8');
}

interface Place {
  where: string;
  text: string;
}

async function everything(
  run: Running,
  dirs: { data: string; scratch: string },
  people: readonly Person[],
): Promise<Place[]> {
  const places: Place[] = [];
  const add = (where: string, text: string) => places.push({ where, text: lower(text) });
  const get = async (server: string, route: string, headers: Record<string, string>) => {
    const answer = await request(serverOf(run, server)).get(route).set(headers);
    // A list that cannot be searched (proposals) refuses `q=` as a parameter it does not take (400
    // naming it, or the service desk's 422 `extra_forbidden`); every other read answers.
    const unsearchable =
      answer.status === 400
        ? answer.body.error?.details?.parameter === 'q'
        : answer.status === 422 && answer.body.detail?.[0]?.type === 'extra_forbidden';
    if (!(route.includes('q=') && unsearchable)) expect([route, answer.status]).toEqual([route, 200]);
    return answer.text;
  };
  for (const module of PERSONAL_MODULES) {
    const reader = readerOf(module.id);
    const searched = people.filter((person) => person.module === module.id);
    for (const route of listsOf(module)) {
      add(route, await get(module.id, `${route}?limit=${LIMIT}`, reader));
      for (const { values } of searched) {
        const q = encodeURIComponent(values[0] as string);
        add(
          `${module.id} ${route}?q=${values[0]}`,
          await get(module.id, `${route}?q=${q}&limit=${LIMIT}`, reader),
        );
      }
    }
  }
  for (const { subject, module, record, history } of people) {
    add(`record of ${subject}`, await get(module, record, readerOf(module)));
    add(`history of ${subject}`, await get('audit', history, auditor));
  }
  add('audit events', await get('audit', '/api/v1/events?limit=1000', auditor));
  for (const format of ['ndjson', 'csv'] as const) {
    add(`export (${format})`, await exportLog(run, dirs.scratch, format));
  }
  for (const { name } of suiteCollections(run.suite.modules)) {
    const { items } = await run.suite.readStore.find(name, { filters: [], limit: 10_000, offset: 0 });
    add(`read model ${name}`, items.join('\n'));
  }
  for (const { file, text } of filesOf(dirs.data)) places.push({ where: file, text });
  return places;
}

/**
 * No value of an erased subject anywhere; no value of anyone in the request log (search terms are
 * logged by their length); every value of a subject not erased still in the read models.
 */
export async function checkInvariant(
  run: Running,
  dirs: { data: string; scratch: string },
  people: readonly Person[],
): Promise<void> {
  const places = await everything(run, dirs, people);
  const leaks = people
    .filter(({ erased }) => erased)
    .flatMap(({ subject, values }) =>
      values.flatMap((value) =>
        places
          .filter(({ text }) => text.includes(lower(value)))
          .map(({ where }) => `${subject} ${value} in ${where}`),
      ),
    );
  expect(leaks).toEqual([]);
  const logged = lower(run.log.text());
  const inLog = people.flatMap(({ subject, values }) =>
    values
      // Each distinctive word of a value on its own: a full name or an address is no more logged in parts.
      .flatMap((value) => value.split(/[\s@.]+/).filter((part) => /^zq/i.test(part)))
      .filter((value) => logged.includes(lower(value)))
      .map((value) => `${subject} ${value}`),
  );
  expect(inLog).toEqual([]);
  // The log did record the reads above, their search terms by length.
  expect(logged.includes('request completed') && (people.length === 0 || logged.includes('q=['))).toBe(true);
  const readModels = places.filter(({ where }) => where.startsWith('read model')).map(({ text }) => text);
  const lost = people
    .filter(({ erased }) => !erased)
    .flatMap(({ subject, values }) =>
      values
        .filter((value) => !readModels.some((text) => text.includes(lower(value))))
        .map((value) => `${subject} ${value}`),
    );
  expect(lost).toEqual([]);
}
