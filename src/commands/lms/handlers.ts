import { createHash } from 'node:crypto';
import { streamNumber } from '../../events/envelope';
import { eventCatalog } from '../../events/catalog';
import {
  lmsCategories,
  lmsEvents,
  lmsStreams,
  type EnrolmentRole,
  type LmsEvent,
  type LmsEventOf,
} from '../../events/lms';
import { creationData, once, type CommandContext } from '../context';
import { DomainError } from '../errors';
import { moduleCommands } from '../module-commands';
import { courseDecider, learnerDecider, lessonDecider } from './catalogue';
import { enrolmentDecider } from './enrolments';

const { run, create } = moduleCommands(eventCatalog(lmsEvents));

type Data<Type extends LmsEvent['type']> = LmsEventOf<Type>['data'];

/** The data of the event that created a record, if the record exists. */
const created = <Type extends LmsEvent['type']>(context: CommandContext, stream: string) =>
  creationData<Data<Type>>(context, stream);

export type CourseInput = Omit<Data<'CourseCreated'>, 'id'>;

export function createCourse(context: CommandContext, course: CourseInput) {
  return create(context, lmsCategories.course, courseDecider, (id) => ({
    type: 'CreateCourse' as const,
    course: { id, ...course },
  }));
}

export type LessonInput = Omit<Data<'LessonAdded'>, 'id'>;

export function addLesson(context: CommandContext, lesson: LessonInput) {
  return create(context, lmsCategories.lesson, lessonDecider, async (id) => ({
    type: 'AddLesson' as const,
    lesson: { id, ...lesson },
    courseExists: (await created(context, lmsStreams.course(lesson.course_id))) !== undefined,
  }));
}

export type LearnerInput = Omit<Data<'LearnerRegistered'>, 'id'>;

export function registerLearner(context: CommandContext, learner: LearnerInput) {
  return create(context, lmsCategories.learner, learnerDecider, (id) => ({
    type: 'RegisterLearner' as const,
    learner: { id, ...learner },
  }));
}

/**
 * The id of the event that enrols this learner in this course: derived from the pair, so the event
 * store, which keeps every event id once, refuses a second enrolment of the pair atomically.
 */
export function enrolmentEventId(learnerId: number, courseId: number): string {
  const hex = createHash('sha256').update(`lms.enrolment:${learnerId}:${courseId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface EnrolmentInput {
  learner_id: number;
  course_id: number;
  role: EnrolmentRole;
}

/** Enrols a learner in a published course; a learner has one enrolment per course (409 for another). */
export async function enrol(context: CommandContext, input: EnrolmentInput) {
  const timed = once(context);
  const keyed = { ...timed.context, eventId: () => enrolmentEventId(input.learner_id, input.course_id) };
  const result = await create(keyed, lmsCategories.enrolment, enrolmentDecider, async (id) => ({
    type: 'Enrol' as const,
    id,
    ...input,
    at: timed.at,
    course: await created<'CourseCreated'>(context, lmsStreams.course(input.course_id)),
    learner: await created<'LearnerRegistered'>(context, lmsStreams.learner(input.learner_id)),
  }));
  const [first] = result.outcome.events;
  if (first && first.stream !== result.stream) {
    // The store answered with the pair's existing enrolment: nothing was appended, the number is free.
    await context.ids.refresh(lmsCategories.enrolment);
    const existing = streamNumber(first.stream);
    throw new DomainError(
      'already_exists',
      `Learner ${input.learner_id} is already enrolled in course ${input.course_id} (enrolment ${existing})`,
      { enrolment_id: existing },
    );
  }
  return result;
}

export interface ProgressInput {
  progress: number;
  current_lesson_id: number;
}

export async function recordProgress(context: CommandContext, enrolmentId: number, input: ProgressInput) {
  const timed = once(context);
  const lesson = await created<'LessonAdded'>(context, lmsStreams.lesson(input.current_lesson_id));
  return run(timed.context, lmsStreams.enrolment(enrolmentId), enrolmentDecider, {
    type: 'RecordProgress',
    ...input,
    lessonCourseId: lesson?.course_id,
    at: timed.at,
  });
}
