import { useQueries } from '@tanstack/react-query';
import { useModulesRequest } from './module-request';
import { recordName } from './record-title';
import { nameColumnOf, referencedTable, tableElsewhere } from './table-columns';
import type { OpenApi } from './openapi';

/** A record another one refers to, as a table's cell shows it: its name, and its page. */
export interface Reference {
  name: string;
  /** Its page, where the module has one for it. */
  to: string | undefined;
}

export type ReferenceOf = (column: string, row: Record<string, unknown>) => Reference | undefined;

const pathOf = (itemPath: string, id: string) => itemPath.replace(/\{[^}]+\}/, encodeURIComponent(id));

/**
 * Names for the reference fields of the rows (`assignee_id` 3 as `Priya Raman`), linked to the
 * records they name: the name the row carries beside the id (`employee_name`) when the API sends one,
 * else read from the referenced record (each once, cached with the record pages' reads), also where
 * it is another module's (a request's requester, HR's employee, as a change in its activity names it).
 */
export function useReferences(
  module: string,
  api: OpenApi | undefined,
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
): ReferenceOf {
  const call = useModulesRequest();
  const own = api
    ? columns.flatMap((column) => {
        const table = referencedTable(api, column);
        return table?.itemPath ? [{ column, module, table: table.name, itemPath: table.itemPath }] : [];
      })
    : [];
  const elsewhere = columns.flatMap((column) => {
    const target = tableElsewhere(module, column);
    return target ? [{ column, ...target, itemPath: `/api/v1/${target.table}/{id}` }] : [];
  });
  const targets = [...own, ...elsewhere];
  const wanted = targets.flatMap((target) => {
    const ids = rows
      .filter((row) => row[nameColumnOf(target.column)] === undefined)
      .map((row) => row[target.column]);
    return [...new Set(ids.filter((id) => id !== null && id !== undefined).map(String))].map((id) => ({
      ...target,
      id,
    }));
  });
  const reads = useQueries({
    queries: wanted.map((target) => ({
      queryKey: ['module', target.module, 'record', target.table, target.id],
      queryFn: () => call<Record<string, unknown>>(target.module, pathOf(target.itemPath, target.id)),
      staleTime: 60_000,
    })),
  });
  const names = new Map(
    wanted.flatMap((target, index) => {
      const record = reads[index]?.data;
      const name = record && recordName(record);
      return name ? [[`${target.column}/${target.id}`, name] as const] : [];
    }),
  );
  return (column, row) => {
    const id = row[column];
    if (id === null || id === undefined) return undefined;
    const carried = row[nameColumnOf(column)];
    const target = targets.find((candidate) => candidate.column === column);
    const name = typeof carried === 'string' ? carried : names.get(`${column}/${String(id)}`);
    if (!target && name === undefined) return undefined;
    const to = target && `/m/${target.module}/${target.table}/${encodeURIComponent(String(id))}`;
    return { name: name ?? String(id), to };
  };
}
