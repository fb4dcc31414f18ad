import type { Filter } from '../projections/read-store';

/**
 * Obligations become overdue by the calendar, not by an event: an obligation that is stored `open`
 * and whose due date is before today (UTC) is reported `overdue`. Nothing is appended when a date
 * passes; every read derives it from the stored due date and the clock.
 */

export type StoredObligationStatus = 'open' | 'completed';
export type ObligationStatus = 'open' | 'overdue' | 'completed';

export function reportedStatus(
  stored: StoredObligationStatus,
  dueDate: string,
  today: string,
): ObligationStatus {
  return stored === 'open' && dueDate < today ? 'overdue' : stored;
}

/** The read-store filters that select obligations reported with `status` on `today`. */
export function statusFilters(status: ObligationStatus, today: string): Filter[] {
  switch (status) {
    case 'overdue':
      return [
        { field: 'status', op: 'eq', value: 'open' },
        { field: 'due_date', op: 'lt', value: today },
      ];
    case 'open':
      return [
        { field: 'status', op: 'eq', value: 'open' },
        { field: 'due_date', op: 'gte', value: today },
      ];
    case 'completed':
      return [{ field: 'status', op: 'eq', value: 'completed' }];
  }
}

export interface ObligationSummary {
  open_obligations: number;
  overdue_obligations: number;
  next_due_date: string | null;
}

/** A contract's obligation figures from the due dates of its open obligations. */
export function summariseObligations(openDueDates: readonly string[], today: string): ObligationSummary {
  const upcoming = openDueDates.filter((due) => due >= today).sort();
  return {
    open_obligations: openDueDates.length,
    overdue_obligations: openDueDates.length - upcoming.length,
    next_due_date: upcoming[0] ?? null,
  };
}
