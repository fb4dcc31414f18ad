import type { HrmEventOf } from '../../events/hrm';
import type { Decider } from '../decider';
import { DomainError } from '../errors';
import type { AttendanceInput } from './calendar';
import type { EmployeeFacts } from './employees';

type AttendanceEvent = HrmEventOf<'AttendanceRecorded'> | HrmEventOf<'AttendanceNumberVoided'>;

/** Records attendance whose day the employee's calendar has claimed (and checked). */
export interface RecordAttendance {
  type: 'RecordAttendance';
  id: number;
  employee: EmployeeFacts;
  attendance: AttendanceInput;
  at: string;
}

const HOUR = 3_600_000;

/** Hours between in and out, to two decimals; 0 until the employee has checked out. */
export function workingHours(inTime: string | null, outTime: string | null): number {
  if (inTime === null || outTime === null) return 0;
  return Math.round(((Date.parse(outTime) - Date.parse(inTime)) / HOUR) * 100) / 100;
}

/** `exists`: the number holds a record, or was voided (`AttendanceNumberVoided`) and never will. */
export const attendanceDecider: Decider<RecordAttendance, { exists: boolean }, AttendanceEvent> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide(command, state) {
    if (state.exists) throw new DomainError('already_exists', `Attendance ${command.id} exists`);
    const { employee, attendance } = command;
    return [
      {
        type: 'AttendanceRecorded',
        data: {
          id: command.id,
          employee_id: employee.id,
          employee_name: employee.employee_name,
          department_id: employee.department_id,
          ...attendance,
          working_hours: workingHours(attendance.in_time, attendance.out_time),
          created: command.at,
        },
      },
    ];
  },
};
