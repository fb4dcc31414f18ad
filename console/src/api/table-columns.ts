import { singular } from './record-title';
import { nonNull, recordSchema, tablesOf, type OpenApi, type ResourceTable } from './openapi';

const MAX_COLUMNS = 7;

/**
 * The columns staff work a table by, where the record's first fields are not them: who, what, how
 * urgent, when due. A column missing from the module's description is left out.
 */
const STAFF_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  'esm/requests': [
    'ref',
    'title',
    'status',
    'priority',
    'assignee_id',
    'requester_id',
    'response_by',
    'resolution_by',
    'sla_state',
  ],
  'hrm/leave': ['id', 'employee_id', 'leave_type', 'from_date', 'to_date', 'total_days', 'status'],
  'crm/opportunities': ['id', 'name', 'company_id', 'stage', 'amount', 'expected_close_date', 'owner'],
  'esm/knowledge': ['id', 'title', 'status', 'department_id', 'author', 'updated_at'],
};

/** The records' plain fields (nested ones are on the record's page). */
function plainFields(api: OpenApi, table: ResourceTable): string[] {
  return Object.entries(recordSchema(api, table).properties ?? {})
    .filter(([, schema]) => {
      const type = nonNull(api, schema).schema.type;
      return type !== 'object' && type !== 'array';
    })
    .map(([name]) => name);
}

/** The columns a table shows: those staff work by, or the record's first plain fields and its status. */
export function columnsOf(api: OpenApi, module: string, table: ResourceTable): string[] {
  const plain = plainFields(api, table);
  const chosen = STAFF_COLUMNS[`${module}/${table.name}`]?.filter((name) => plain.includes(name));
  if (chosen && chosen.length > 0) return chosen;
  const first = plain.filter((name) => name !== 'status').slice(0, MAX_COLUMNS - 1);
  return plain.includes('status') ? [...first, 'status'] : plain.slice(0, MAX_COLUMNS);
}

/**
 * The fields a list may be sorted by, as its `sort` parameter's description names them ("…: status,
 * priority, created_at, id. Ties are…"); none when it takes no `sort`.
 */
export function sortFieldsOf(api: OpenApi, table: ResourceTable): string[] {
  const sort = api.paths[table.listPath]?.get?.parameters?.find((parameter) => parameter.name === 'sort');
  const described = sort?.schema.description ?? sort?.description ?? '';
  const named = /descending:\s*([^.]+)\./.exec(described)?.[1];
  return named ? named.split(',').map((field) => field.trim()) : [];
}

/** The field a column sorts by: itself, or for a record's `created` the stored `created_at`. */
export function sortFieldOf(column: string, sortable: readonly string[]): string | undefined {
  if (sortable.includes(column)) return column;
  if (column === 'created' && sortable.includes('created_at')) return 'created_at';
  return undefined;
}

/** Newest first: the newest-created records, or the highest ids, where the list sorts by them. */
export function newestFirst(sortable: readonly string[]): string | undefined {
  const field = ['created', 'created_at', 'id'].find((candidate) => sortable.includes(candidate));
  return field && `-${field}`;
}

/** The table a reference field (`assignee_id`) points to, where its name does not say it. */
const REFERENCED: Readonly<Record<string, string>> = {
  assignee: 'agents',
  reports_to: 'employees',
  leave_approver: 'employees',
  parent_department: 'departments',
};

/** References to another module's records, by module and column: that module and its table. */
const ELSEWHERE: Readonly<Record<string, { module: string; table: string }>> = {
  'esm/requester_id': { module: 'hrm', table: 'employees' },
};

/** The other module's table whose records a column refers to (a request's requester: HR's employees). */
export const tableElsewhere = (module: string, column: string) => ELSEWHERE[`${module}/${column}`];

/** The module's table whose records a column refers to (`department_id`: `departments`), if any. */
export function referencedTable(api: OpenApi, column: string): ResourceTable | undefined {
  const base = column.replace(/_id$/, '');
  if (base === column && !(column in REFERENCED)) return undefined;
  const tables = tablesOf(api).filter((table) => table.itemPath !== undefined);
  const named = REFERENCED[base];
  return tables.find((table) => (named ? table.name === named : singular(table.name) === base));
}

/** The column of a record's own name for a reference, when the API sends it (`employee_name`). */
export const nameColumnOf = (column: string): string => `${column.replace(/_id$/, '')}_name`;
