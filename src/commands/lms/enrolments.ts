import type { CourseStatus, EnrolmentRole, LearnerStatus, LmsEvent } from '../../events/lms';
import type { Decider } from '../decider';
import { DomainError, illegalTransition, invalidField } from '../errors';

type EnrolmentEvent = Extract<LmsEvent, { type: 'LearnerEnrolled' | 'EnrolmentProgressRecorded' }>;

/** Enrols a learner in a published course. A second enrolment of the same pair is refused by the handler. */
export interface Enrol {
  type: 'Enrol';
  id: number;
  learner_id: number;
  course_id: number;
  role: EnrolmentRole;
  at: string;
  /** `undefined`: no such course or learner. */
  course: { status: CourseStatus; title: string } | undefined;
  learner: { status: LearnerStatus; full_name: string } | undefined;
}

/** Progress through the course: percent complete and the lesson the learner is on. */
export interface RecordProgress {
  type: 'RecordProgress';
  progress: number;
  current_lesson_id: number;
  /** The course of that lesson; `undefined`: no such lesson. */
  lessonCourseId: number | undefined;
  at: string;
}

export type EnrolmentCommand = Enrol | RecordProgress;
export type EnrolmentState = { course_id: number; progress: number } | null;

function enrol(command: Enrol): EnrolmentEvent[] {
  const { course, learner } = command;
  if (!course) throw invalidField('course_id', `course ${command.course_id} does not exist`);
  if (course.status !== 'Published') {
    throw invalidField('course_id', `course ${command.course_id} is not published (${course.status})`);
  }
  if (!learner) throw invalidField('learner_id', `learner ${command.learner_id} does not exist`);
  if (learner.status !== 'Active')
    throw invalidField('learner_id', `learner ${command.learner_id} is inactive`);
  const { id, learner_id, course_id, role, at } = command;
  const names = { learner_name: learner.full_name, course_title: course.title };
  return [{ type: 'LearnerEnrolled', data: { id, learner_id, course_id, ...names, role, enrolled_at: at } }];
}

function record(command: RecordProgress, state: NonNullable<EnrolmentState>): EnrolmentEvent[] {
  if (command.lessonCourseId !== state.course_id) {
    throw invalidField(
      'current_lesson_id',
      `lesson ${command.current_lesson_id} is not a lesson of this course`,
    );
  }
  if (state.progress === 100) throw illegalTransition('enrolment', 'Complete', 'record progress on');
  if (command.progress < state.progress) {
    throw invalidField('progress', `cannot go down from ${state.progress}`);
  }
  const { progress, current_lesson_id, at } = command;
  return [{ type: 'EnrolmentProgressRecorded', data: { progress, current_lesson_id, recorded_at: at } }];
}

export const enrolmentDecider: Decider<EnrolmentCommand, EnrolmentState, EnrolmentEvent> = {
  initialState: () => null,
  evolve(state, event) {
    if (event.type === 'LearnerEnrolled') return { course_id: event.data.course_id, progress: 0 };
    return state && { ...state, progress: event.data.progress };
  },
  decide(command, state) {
    if (command.type === 'Enrol') {
      if (state) throw new DomainError('already_exists', `Enrolment ${command.id} exists`);
      return enrol(command);
    }
    if (!state) throw new DomainError('not_found', 'Enrolment not found');
    return record(command, state);
  },
};
