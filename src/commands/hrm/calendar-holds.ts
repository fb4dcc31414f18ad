import type { NewEvent, StoredEvent } from '../../events/envelope';
import { hrmStream } from '../../events/hrm';
import type { CommandContext } from '../context';
import { fold, type Decider } from '../decider';
import type { BookedDays, ClaimedDay } from './calendar';
import { run, type Data } from './facts';
import { leaveDecider, type LeaveEvent } from './leave';

/*
 * Whether the entries of an employee's calendar are held by the records they name. A leave or
 * attendance write appends the calendar's entry first and the record after it: where the store has no
 * transaction across streams (EventStoreDB), a process that stops in between, or a conflict on the
 * record's stream, leaves the entry without its record. Such an entry does not count: it is released
 * by the next booking or claim it stands in the way of, so no refusal ever rests on it.
 *
 * An entry whose record's stream is empty may still get its record (its writer is between the two
 * appends), so the number is voided first: an event appended where the record would be, expecting no
 * stream, after which the record can never be appended. Had the record been appended meanwhile, it is
 * judged as it is.
 */

type Voided = 'LeaveNumberVoided' | 'AttendanceNumberVoided';

const voiding = (type: Voided): Decider<{ id: number }, boolean, NewEvent> => ({
  initialState: () => false,
  evolve: () => true,
  decide: ({ id }, exists) => (exists ? [] : [{ type, data: { id } }]),
});

/** Whether the record at `stream` holds its entry; an empty stream is voided first. */
async function held(
  context: CommandContext,
  stream: string,
  voided: Voided,
  id: number,
  holds: (history: readonly StoredEvent[]) => boolean,
): Promise<boolean> {
  const history = await context.eventStore.readStream(stream);
  if (history.length > 0) return holds(history);
  // Not under the request's idempotency key: that goes with the request's own record.
  const { outcome } = await run({ ...context, idempotency: undefined }, stream, voiding(voided), { id });
  return outcome.events.length === 0 && holds(await context.eventStore.readStream(stream));
}

/** The applications, among those `bookings` name, that do not hold their days (Open or Approved leave of theirs). */
export async function unheldBookings(
  context: CommandContext,
  employeeId: number,
  bookings: readonly BookedDays[],
): Promise<number[]> {
  const unheld: number[] = [];
  for (const { leave_id, from_date, to_date } of bookings) {
    if (leave_id === null) continue;
    const holds = (history: readonly StoredEvent[]) => {
      const application = fold(leaveDecider, history as unknown as LeaveEvent[]);
      return (
        application !== null &&
        application !== 'voided' &&
        (application.status === 'Open' || application.status === 'Approved') &&
        application.employee_id === employeeId &&
        application.from_date === from_date &&
        application.to_date === to_date
      );
    };
    if (!(await held(context, hrmStream('leave', leave_id), 'LeaveNumberVoided', leave_id, holds)))
      unheld.push(leave_id);
  }
  return unheld;
}

/** The attendance records, among those `claims` name, that do not hold their day. */
export async function unheldClaims(
  context: CommandContext,
  employeeId: number,
  claims: readonly ClaimedDay[],
): Promise<number[]> {
  const unheld: number[] = [];
  for (const { attendance_id, attendance_date } of claims) {
    if (attendance_id === null) continue;
    const holds = ([first]: readonly StoredEvent[]) => {
      const record = first?.type === 'AttendanceRecorded' ? (first.data as Data<'AttendanceRecorded'>) : null;
      return record?.employee_id === employeeId && record.attendance_date === attendance_date;
    };
    const stream = hrmStream('attendance', attendance_id);
    if (!(await held(context, stream, 'AttendanceNumberVoided', attendance_id, holds)))
      unheld.push(attendance_id);
  }
  return unheld;
}
