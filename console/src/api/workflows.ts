/**
 * The statuses a record may move to now, as the record tells them (`next_statuses`: a request, a leave
 * application): the console offers only these. The module still decides: a move it refuses is shown
 * with its 409.
 */
export const hasWorkflow = (record: Record<string, unknown>): boolean => Array.isArray(record.next_statuses);

/** The statuses a record may move to now (none from a final one, or when it does not tell). */
export function nextStatuses(record: Record<string, unknown>): readonly string[] {
  const told = record.next_statuses;
  return Array.isArray(told) ? told.filter((status): status is string => typeof status === 'string') : [];
}
