import { z } from 'zod';
import type { StoredEvent } from '../events/envelope';
import {
  COURSE_CATEGORIES,
  COURSE_LEVELS,
  COURSE_STATUSES,
  ENROLMENT_ROLES,
  ENROLMENT_STATUSES,
  LEARNER_LEVELS,
  LEARNER_STATUSES,
  LESSON_CONTENT_TYPES,
  type LmsEvent,
  lmsStreams,
} from '../events/lms';
import { id, text, textOrNull, oneOf, date, timestamp } from './fields';
import { createdByOf, idFromStream, type DocumentProjection, type Projector } from './projection';

export const CourseRecord = z
  .object({
    id,
    title: text,
    slug: text,
    short_introduction: text,
    description: text,
    category: oneOf(COURSE_CATEGORIES),
    tags: z.array(text),
    level: oneOf(COURSE_LEVELS),
    language: text.meta({ description: 'ISO 639-1' }),
    instructors: z.array(text),
    paid_course: z.boolean(),
    price: z.number(),
    currency: text,
    enable_certification: z.boolean().meta({ description: 'A certificate is issued on completion' }),
    status: oneOf(COURSE_STATUSES, 'Only Published courses take enrolments'),
    published_on: date.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'Course' });

export const LessonRecord = z
  .object({
    id,
    course_id: id,
    chapter_number: z.number().int(),
    chapter_title: text,
    lesson_number: z.number().int().meta({ description: 'Position within the chapter' }),
    title: text,
    content_type: oneOf(LESSON_CONTENT_TYPES),
    duration_minutes: z.number().int(),
    xp: z.number().int().meta({ description: 'Experience points for completing the lesson' }),
    include_in_preview: z.boolean(),
  })
  .meta({ id: 'Lesson' });

export const LearnerRecord = z
  .object({
    id,
    full_name: text,
    username: text,
    email: text,
    country: text,
    company: textOrNull,
    job_title: textOrNull,
    xp: z.number().int(),
    level: oneOf(
      LEARNER_LEVELS,
      'From XP: Novice 0, Apprentice 500, Practitioner 1500, Expert 4000, Master 8000',
    ),
    status: oneOf(LEARNER_STATUSES),
    joined_at: timestamp,
  })
  .meta({ id: 'Learner' });

export const EnrolmentRecord = z
  .object({
    id,
    learner_id: id,
    course_id: id,
    learner_name: text.meta({ description: 'As when the learner enrolled' }),
    course_title: text.meta({ description: 'As when the learner enrolled' }),
    role: oneOf(ENROLMENT_ROLES),
    progress: z.number().int().meta({ description: 'Percent of the course complete, 0-100' }),
    status: oneOf(ENROLMENT_STATUSES, 'Incomplete at 0%, Partially Complete, Complete at 100%'),
    current_lesson_id: id.nullable(),
    enrolled_at: timestamp,
    completed_on: date.nullable(),
    last_activity_at: timestamp,
  })
  .meta({ id: 'Enrolment' });

export type CourseRecord = z.infer<typeof CourseRecord>;
export type LessonRecord = z.infer<typeof LessonRecord>;
export type LearnerRecord = z.infer<typeof LearnerRecord>;
export type EnrolmentRecord = z.infer<typeof EnrolmentRecord>;

type Event = StoredEvent & LmsEvent;

const LEVEL_FROM: readonly [number, (typeof LEARNER_LEVELS)[number]][] = [
  [8000, 'Master'],
  [4000, 'Expert'],
  [1500, 'Practitioner'],
  [500, 'Apprentice'],
  [0, 'Novice'],
];

export function learnerLevel(xp: number): (typeof LEARNER_LEVELS)[number] {
  return LEVEL_FROM.find(([from]) => xp >= from)?.[1] ?? 'Novice';
}

export function progressStatus(progress: number): (typeof ENROLMENT_STATUSES)[number] {
  return progress === 0 ? 'Incomplete' : progress === 100 ? 'Complete' : 'Partially Complete';
}

const createdBy = createdByOf<Event>();

const courses = createdBy('lms.courses', 'CourseCreated', lmsStreams.course, (event): CourseRecord => ({
  ...event.data,
  created_at: event.metadata.occurred_at,
}));

const lessons = createdBy(
  'lms.lessons',
  'LessonAdded',
  lmsStreams.lesson,
  (event): LessonRecord => event.data,
);

const learners = createdBy(
  'lms.learners',
  'LearnerRegistered',
  lmsStreams.learner,
  ({ data, metadata }): LearnerRecord => ({
    ...data,
    level: learnerLevel(data.xp),
    joined_at: metadata.occurred_at,
  }),
);

function evolveEnrolment(doc: EnrolmentRecord | null, stored: StoredEvent): EnrolmentRecord | null {
  const event = stored as Event;
  if (event.type === 'LearnerEnrolled') {
    return {
      ...event.data,
      progress: 0,
      status: 'Incomplete',
      current_lesson_id: null,
      completed_on: null,
      last_activity_at: event.data.enrolled_at,
    };
  }
  if (!doc || event.type !== 'EnrolmentProgressRecorded') return doc;
  const { progress, current_lesson_id, recorded_at } = event.data;
  return {
    ...doc,
    progress,
    status: progressStatus(progress),
    current_lesson_id,
    completed_on: progress === 100 ? recorded_at.slice(0, 10) : null,
    last_activity_at: recorded_at,
  };
}

export const enrolmentsProjection: DocumentProjection<EnrolmentRecord> = {
  collection: 'lms.enrolments',
  handles: ['LearnerEnrolled', 'EnrolmentProgressRecorded'],
  documentId: idFromStream,
  stream: (id) => lmsStreams.enrolment(Number(id)),
  evolve: evolveEnrolment,
};

export const lmsProjector: Projector = {
  name: 'lms',
  // 2: every record carries created_at and updated_at (`evolveStamped`).
  version: 2,
  projections: [courses, lessons, learners, enrolmentsProjection],
};
