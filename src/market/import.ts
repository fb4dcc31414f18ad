import type { CommandContext } from '../commands/context';
import { observationFacts, recordObservations } from '../commands/market/handlers';
import { observationProblems, type ObservationInput, type RowProblem } from '../commands/market/observations';

/** The columns of an import file (CSV header or JSON keys); the last two may be left empty. */
export const IMPORT_COLUMNS = [
  'country',
  'competitor_id',
  'location_id',
  'treatment',
  'price',
  'currency',
  'captured_at',
  'evidence_url',
  'publisher',
  'retrieved_at',
] as const;

export interface RowReport {
  /** 1-based line of the file where the row starts. */
  line: number;
  problems: RowProblem[];
}

export type ImportResult =
  { ok: true; imported: number; batches: number } | { ok: false; rejected: RowReport[] };

interface RawRow {
  line: number;
  values: Record<string, unknown>;
}

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks. Rows keep their start line. */
export function parseCsv(text: string): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const endRow = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0] !== '') rows.push({ line: start, cells });
    cells = [];
    cell = '';
  };
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else {
        if (char === '\n') line++;
        cell += char;
      }
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      endRow();
      line++;
      start = line;
    } else cell += char;
  }
  if (cell !== '' || cells.length > 0) endRow();
  return rows;
}

/** The line on which each element of a top-level JSON array starts. */
function elementLines(text: string): number[] {
  const lines: number[] = [];
  let depth = 0;
  let line = 1;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '\n') line++;
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') {
      if (depth === 1) lines.push(line);
      depth++;
    } else if (char === '}' || char === ']') depth--;
    else if (depth === 1 && /[^\s,]/.test(char as string)) lines.push(line);
  }
  return lines;
}

function csvRows(text: string): RawRow[] | RowReport[] {
  const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
  if (!header)
    return [{ line: 1, problems: [{ field: 'file', message: 'is empty: expected a header row' }] }];
  const columns = header.cells.map((cell) => cell.trim().toLowerCase());
  const unknown = columns.filter((column) => !(IMPORT_COLUMNS as readonly string[]).includes(column));
  if (unknown.length > 0) {
    return [
      {
        line: 1,
        problems: [
          {
            field: 'header',
            message: `unknown column(s) ${unknown.join(', ')}; use ${IMPORT_COLUMNS.join(', ')}`,
          },
        ],
      },
    ];
  }
  return rows.map(({ line, cells }) => ({
    line,
    values: Object.fromEntries(columns.map((column, index) => [column, cells[index]?.trim() ?? ''])),
  }));
}

function jsonRows(text: string): RawRow[] | RowReport[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return [
      { line: 1, problems: [{ field: 'file', message: `is not valid JSON (${(error as Error).message})` }] },
    ];
  }
  if (!Array.isArray(parsed))
    return [{ line: 1, problems: [{ field: 'file', message: 'must be a JSON array of rows' }] }];
  const lines = elementLines(text);
  return parsed.map((values, index) => ({
    line: lines[index] ?? 1,
    values: values as Record<string, unknown>,
  }));
}

/** A row as the rules read it: numbers where numbers belong (NaN when not one), trimmed text elsewhere. */
function toInput(values: Record<string, unknown>): { input: ObservationInput; problems: RowProblem[] } {
  const problems: RowProblem[] = Object.keys(values)
    .filter((key) => !(IMPORT_COLUMNS as readonly string[]).includes(key))
    .map((key) => ({ field: key, message: 'is not a column of the import format' }));
  const text = (key: string) => {
    const value = values[key];
    return value === null || value === undefined ? '' : String(value).trim();
  };
  const number = (key: string) => {
    const value = values[key];
    if (typeof value === 'number') return value;
    return /^-?\d+(\.\d+)?$/.test(text(key)) ? Number(text(key)) : Number.NaN;
  };
  return {
    problems,
    input: {
      country: text('country'),
      competitor_id: number('competitor_id'),
      location_id: number('location_id'),
      treatment: text('treatment'),
      price: number('price'),
      currency: text('currency'),
      captured_at: text('captured_at'),
      evidence_url: text('evidence_url'),
      publisher: text('publisher') || null,
      retrieved_at: text('retrieved_at') || null,
    },
  };
}

/**
 * Imports a CSV or JSON file of observations: every row is checked first (shape, the market's
 * currency and its minor units, evidence URL, dates, known competitor and location), and the file is
 * recorded only when no row is bad, in as many batches as one append holds (`MAX_APPEND_BYTES`, the same
 * on every event store); otherwise nothing is, and each bad row is reported.
 */
export async function importObservations(
  context: CommandContext,
  text: string,
  format: 'csv' | 'json',
): Promise<ImportResult> {
  const raw = format === 'csv' ? csvRows(text) : jsonRows(text);
  if (raw.some((row) => 'problems' in row)) return { ok: false, rejected: raw as RowReport[] };
  const rows = raw as RawRow[];
  if (rows.length === 0)
    return { ok: false, rejected: [{ line: 1, problems: [{ field: 'file', message: 'holds no rows' }] }] };
  const shaped = rows.map((row) => {
    if (typeof row.values !== 'object' || row.values === null || Array.isArray(row.values)) {
      return {
        line: row.line,
        input: null,
        problems: [{ field: 'row', message: 'must be an object of the import columns' }],
      };
    }
    return { line: row.line, ...toInput(row.values) };
  });
  const inputs = shaped.flatMap((row) => (row.input ? [row.input] : []));
  const facts = await observationFacts(context, inputs);
  const rejected = shaped
    .map(({ line, input, problems }) => ({
      line,
      problems: [...problems, ...(input ? observationProblems(input, facts) : [])],
    }))
    .filter((report) => report.problems.length > 0);
  if (rejected.length > 0) return { ok: false, rejected };
  const batches = await recordObservations(context, inputs, facts);
  return { ok: true, imported: inputs.length, batches: batches.length };
}

/** `csv` or `json`, by the file's extension or else its first character. */
export function importFormat(fileName: string, text: string): 'csv' | 'json' {
  if (/\.json$/i.test(fileName)) return 'json';
  if (/\.csv$/i.test(fileName)) return 'csv';
  return /^\s*\[/.test(text) ? 'json' : 'csv';
}
