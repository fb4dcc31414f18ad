import { z } from 'zod';
import { enrol } from '../commands/lms/handlers';
import {
  COURSE_CATEGORIES,
  COURSE_LEVELS,
  COURSE_STATUSES,
  ENROLMENT_ROLES,
  ENROLMENT_STATUSES,
  LEARNER_LEVELS,
  LEARNER_STATUSES,
  LESSON_CONTENT_TYPES,
  lmsEvents,
} from '../events/lms';
import {
  CourseRecord,
  EnrolmentRecord,
  LearnerRecord,
  LessonRecord,
  enrolmentsProjection,
  lmsProjector,
} from '../projections/lms';
import { seedLearning } from '../seed/lms';
import type { ModuleDefinition, ResourceDefinition, WriteRoute } from './kit/module';
import { booleanFilter, caseInsensitiveEnum, enumFilter, idFilter } from './kit/parameters';

const courses: ResourceDefinition = {
  path: 'courses',
  name: 'Course',
  description: 'the course catalogue',
  record: CourseRecord,
  collection: {
    name: 'lms.courses',
    idKind: 'integer',
    searchFields: ['title', 'short_introduction', 'category', 'tags', 'instructors'],
    filterFields: ['status', 'category', 'level', 'language', 'paid_course'],
  },
  filters: {
    status: enumFilter('status', COURSE_STATUSES),
    category: enumFilter('category', COURSE_CATEGORIES),
    level: enumFilter('level', COURSE_LEVELS),
    language: {
      field: 'language',
      schema: z
        .string()
        .regex(/^[A-Za-z]{2}$/, 'Input should be a two-letter language code')
        .transform((code) => code.toLowerCase()),
      description: 'ISO 639-1 language code',
    },
    paid_course: booleanFilter('paid_course', 'Paid (true) or free (false) courses'),
  },
};

const lessons: ResourceDefinition = {
  path: 'lessons',
  name: 'Lesson',
  description: 'course lessons: content type, duration and XP',
  record: LessonRecord,
  collection: {
    name: 'lms.lessons',
    idKind: 'integer',
    searchFields: ['title', 'chapter_title'],
    filterFields: ['course_id', 'content_type', 'include_in_preview'],
  },
  filters: {
    course_id: idFilter('course_id', 'Lessons of this course'),
    content_type: enumFilter('content_type', LESSON_CONTENT_TYPES),
    include_in_preview: booleanFilter('include_in_preview', 'Lessons open to visitors before they enrol'),
  },
};

const learners: ResourceDefinition = {
  path: 'learners',
  name: 'Learner',
  description: 'learner profiles and progress levels',
  record: LearnerRecord,
  collection: {
    name: 'lms.learners',
    idKind: 'integer',
    searchFields: ['full_name', 'username', 'email', 'company'],
    filterFields: ['level', 'status', 'country'],
  },
  filters: {
    level: enumFilter('level', LEARNER_LEVELS, 'Progress level'),
    status: enumFilter('status', LEARNER_STATUSES),
    country: {
      field: 'country',
      schema: z
        .string()
        .regex(/^[A-Za-z]{2}$/, 'Input should be a two-letter country code')
        .transform((code) => code.toUpperCase()),
      description: 'ISO 3166-1 alpha-2 country code',
    },
  },
};

const enrolments: ResourceDefinition = {
  path: 'enrolments',
  name: 'Enrolment',
  description: 'enrolments of learners in courses, with progress',
  record: EnrolmentRecord,
  collection: {
    name: 'lms.enrolments',
    idKind: 'integer',
    searchFields: ['learner_name', 'course_title'],
    filterFields: ['learner_id', 'course_id', 'status', 'role'],
  },
  filters: {
    learner_id: idFilter('learner_id', 'Enrolments of this learner'),
    course_id: idFilter('course_id', 'Enrolments in this course'),
    status: enumFilter('status', ENROLMENT_STATUSES, 'Progress status'),
    role: enumFilter('role', ENROLMENT_ROLES),
  },
};

const EnrolmentCreation = z
  .strictObject({
    learner_id: z.int().positive(),
    course_id: z.int().positive().meta({ description: 'A Published course' }),
    role: caseInsensitiveEnum(ENROLMENT_ROLES).optional().meta({ description: 'Student unless given' }),
  })
  .meta({ id: 'EnrolmentCreation' });

const enrolRoute: WriteRoute<z.infer<typeof EnrolmentCreation>> = {
  method: 'post',
  path: '/api/v1/enrolments',
  operation: 'createEnrolment',
  summary: 'Enrol a learner in a published course (one enrolment per learner and course)',
  body: EnrolmentCreation,
  status: 201,
  resource: enrolments,
  projection: enrolmentsProjection,
  execute: ({ body }, context) => enrol(context, { ...body, role: body.role ?? 'Student' }),
};

export const lmsModule: ModuleDefinition = {
  id: 'lms',
  title: 'Learning',
  shortTitle: 'Learning',
  description:
    'The course catalogue with its lessons, learners and their enrolments. Reads are public; writes need a bearer token.',
  version: '1.0.0',
  itemParam: 'id',
  readErrors: 'envelope',
  list: { defaultLimit: 50, maxLimit: 200 },
  resources: [courses, lessons, learners, enrolments],
  writes: [enrolRoute] as WriteRoute[],
  events: lmsEvents,
  projector: lmsProjector,
  seed: seedLearning,
};
