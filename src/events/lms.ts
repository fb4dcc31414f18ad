import { z } from 'zod';
import { defineEvent, ownPersonalData, type EventsOf } from './catalog';

const id = z.number().int().positive();
const timestamp = z.string();
const date = z.string().meta({ description: 'YYYY-MM-DD' });

export const COURSE_STATUSES = ['Draft', 'Under Review', 'Published', 'Archived'] as const;
export type CourseStatus = (typeof COURSE_STATUSES)[number];
export const COURSE_LEVELS = ['Beginner', 'Intermediate', 'Advanced'] as const;
export const COURSE_CATEGORIES = [
  'Leadership',
  'Data & Analytics',
  'Software Development',
  'Cloud & DevOps',
  'Security',
  'Compliance',
  'Project Management',
  'Sales & Marketing',
  'Finance',
  'Customer Service',
  'Languages',
  'Wellbeing',
] as const;
export const LESSON_CONTENT_TYPES = ['Video', 'Article', 'Quiz', 'Assignment', 'Live Session'] as const;
export const LEARNER_STATUSES = ['Active', 'Inactive'] as const;
export type LearnerStatus = (typeof LEARNER_STATUSES)[number];
/** Progress levels by XP earned: Novice from 0, Apprentice 500, Practitioner 1500, Expert 4000, Master 8000. */
export const LEARNER_LEVELS = ['Novice', 'Apprentice', 'Practitioner', 'Expert', 'Master'] as const;
/** Member type of an enrolment, as Frappe LMS's `member_type`. */
export const ENROLMENT_ROLES = ['Student', 'Mentor', 'Staff'] as const;
export type EnrolmentRole = (typeof ENROLMENT_ROLES)[number];
/** Progress status of an enrolment, as Frappe LMS: 0% Incomplete, 1-99% Partially Complete, 100% Complete. */
export const ENROLMENT_STATUSES = ['Incomplete', 'Partially Complete', 'Complete'] as const;

export const lmsEvents = [
  defineEvent(
    'CourseCreated',
    z.object({
      id,
      title: z.string(),
      slug: z.string(),
      short_introduction: z.string(),
      description: z.string(),
      category: z.enum(COURSE_CATEGORIES),
      tags: z.array(z.string()),
      level: z.enum(COURSE_LEVELS),
      language: z.string(),
      instructors: z.array(z.string()).min(1),
      paid_course: z.boolean(),
      price: z.number().nonnegative(),
      currency: z.string().length(3),
      enable_certification: z.boolean(),
      status: z.enum(COURSE_STATUSES),
      published_on: date.nullable(),
    }),
  ),
  defineEvent(
    'LessonAdded',
    z.object({
      id,
      course_id: id,
      chapter_number: z.number().int().positive(),
      chapter_title: z.string(),
      lesson_number: z.number().int().positive(),
      title: z.string(),
      content_type: z.enum(LESSON_CONTENT_TYPES),
      duration_minutes: z.number().int().positive(),
      xp: z.number().int().nonnegative(),
      include_in_preview: z.boolean(),
    }),
  ),
  defineEvent(
    'LearnerRegistered',
    z.object({
      id,
      full_name: z.string(),
      username: z.string(),
      email: z.string(),
      country: z.string().length(2),
      company: z.string().nullable(),
      job_title: z.string().nullable(),
      xp: z.number().int().nonnegative(),
      status: z.enum(LEARNER_STATUSES),
    }),
    { personal: ownPersonalData('full_name', 'username', 'email') },
  ),
  defineEvent(
    'LearnerEnrolled',
    z.object({
      id,
      learner_id: id,
      course_id: id,
      /** The learner's name and the course title when the learner enrolled, as Frappe LMS keeps them. */
      learner_name: z.string(),
      course_title: z.string(),
      role: z.enum(ENROLMENT_ROLES),
      enrolled_at: timestamp,
    }),
    { personal: [{ subject: ({ data }) => `lms.learner-${data.learner_id}`, fields: ['learner_name'] }] },
  ),
  defineEvent(
    'EnrolmentProgressRecorded',
    z.object({
      progress: z.number().int().min(0).max(100),
      current_lesson_id: id,
      recorded_at: timestamp,
    }),
  ),
] as const;

export type LmsEvent = EventsOf<typeof lmsEvents>;
export type LmsEventOf<Type extends LmsEvent['type']> = Extract<LmsEvent, { type: Type }>;

export const lmsStreams = {
  course: (courseId: number) => `lms.course-${courseId}`,
  lesson: (lessonId: number) => `lms.lesson-${lessonId}`,
  learner: (learnerId: number) => `lms.learner-${learnerId}`,
  enrolment: (enrolmentId: number) => `lms.enrolment-${enrolmentId}`,
};

export const lmsCategories = {
  course: 'lms.course',
  lesson: 'lms.lesson',
  learner: 'lms.learner',
  enrolment: 'lms.enrolment',
} as const;
