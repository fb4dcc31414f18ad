/**
 * The statuses a record may move to from each status, by module and resource, as the modules' rules
 * have them (docs/api/esm.md, docs/api/hrm.md): the console offers only these. The module still
 * decides: a move it refuses is shown with its 409.
 */
const NEXT_STATUSES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  'esm/requests': {
    'Pending Approval': ['Open', 'Rejected'],
    Open: ['Replied', 'Resolved', 'Closed'],
    Replied: ['Open', 'Resolved', 'Closed'],
    Resolved: ['Open', 'Closed'],
  },
  'hrm/leave': {
    Open: ['Approved', 'Rejected', 'Cancelled'],
    Approved: ['Cancelled'],
  },
};

/** Whether the console knows the workflow of a resource's records. */
export const hasWorkflow = (module: string, resource: string): boolean =>
  `${module}/${resource}` in NEXT_STATUSES;

/** The statuses a record in `status` may move to (none from a final one). */
export const nextStatuses = (module: string, resource: string, status: unknown): readonly string[] =>
  NEXT_STATUSES[`${module}/${resource}`]?.[String(status)] ?? [];

/** Every workflow the console knows, for the test that keeps it true to the modules' rules. */
export const WORKFLOWS = NEXT_STATUSES;
