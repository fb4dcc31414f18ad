/**
 * The statuses a record may move to from each status, by module and resource, as the modules' rules
 * have them (docs/api/hrm.md), for records that do not say it themselves (a request does): the
 * console offers only these. The module still decides: a move it refuses is shown with its 409.
 */
const NEXT_STATUSES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  'hrm/leave': {
    Open: ['Approved', 'Rejected', 'Cancelled'],
    Approved: ['Cancelled'],
  },
};

/** Whether the console knows the moves of a record's status: from the record, or its workflow. */
export const hasWorkflow = (module: string, resource: string, record: Record<string, unknown>): boolean =>
  Array.isArray(record.next_statuses) || `${module}/${resource}` in NEXT_STATUSES;

/**
 * The statuses a record may move to now (none from a final one): as the record says (a request's
 * `next_statuses`), else by its workflow from its status.
 */
export function nextStatuses(
  module: string,
  resource: string,
  record: Record<string, unknown>,
): readonly string[] {
  const told = record.next_statuses;
  if (Array.isArray(told)) return told.filter((status): status is string => typeof status === 'string');
  return NEXT_STATUSES[`${module}/${resource}`]?.[String(record.status)] ?? [];
}

/** Every workflow the console knows, for the test that keeps it true to the modules' rules. */
export const WORKFLOWS = NEXT_STATUSES;
