import { z } from 'zod';
import { defineEvent } from '../catalog';
import { date, id } from './fields';

/** Calendar entries as they were before they named their record (v1). */
const leaveDays = z.object({
  from_date: date,
  to_date: date,
  half_day_date: date.nullable(),
  total_days: z.number().positive().multipleOf(0.5),
});
const attendanceDay = z.object({ attendance_date: date });

export const calendarEvents = [
  /**
   * An employee's calendar (`hrm.calendar-<employee id>`) holds the days their leave and attendance
   * claim: it is where overlapping leave and a second attendance record for a day are refused. Since
   * v2 a booking names the application it is for (`leave_id`), which is appended after it: the booking
   * holds its days only while that application does (see `calendar-holds.ts`). `null`: booked before
   * bookings named their application, by a store that appended both at once.
   */
  defineEvent('LeaveDaysBooked', z.object({ ...leaveDays.shape, leave_id: id.nullable() }), {
    version: 2,
    upcasters: [
      {
        from: 1,
        schema: leaveDays,
        upcast: (data) => ({ ...(data as z.infer<typeof leaveDays>), leave_id: null }),
      },
    ],
  }),
  /**
   * Days given back: by rejected or cancelled leave, or by a booking whose application was never
   * recorded. Active bookings never overlap, so the dates name one.
   */
  defineEvent('LeaveDaysReleased', z.object({ from_date: date, to_date: date })),
  /** Since v2 the claim names its attendance record (`attendance_id`), as a booking names its leave. */
  defineEvent('AttendanceDayClaimed', z.object({ attendance_date: date, attendance_id: id.nullable() }), {
    version: 2,
    upcasters: [
      {
        from: 1,
        schema: attendanceDay,
        upcast: (data) => ({ ...(data as z.infer<typeof attendanceDay>), attendance_id: null }),
      },
    ],
  }),
  /** A claim whose attendance record was never recorded gives its day back. */
  defineEvent('AttendanceDayReleased', attendanceDay),
  /**
   * A leave or attendance number that holds no record and never will: its calendar entry was appended
   * and the record was not (a write to several streams cut short). Appended where the record would have
   * been, so the record can no longer be appended there; its calendar entry is then released.
   */
  defineEvent('LeaveNumberVoided', z.object({ id })),
  defineEvent('AttendanceNumberVoided', z.object({ id })),
] as const;
