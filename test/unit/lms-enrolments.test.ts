import { courseDecider } from '../../src/commands/lms/catalogue';
import { enrolmentDecider, type Enrol, type RecordProgress } from '../../src/commands/lms/enrolments';
import { enrolmentEventId } from '../../src/commands/lms/handlers';
import type { LmsEventOf } from '../../src/events/lms';
import { learnerLevel, progressStatus } from '../../src/projections/lms';
import { deciderSpec } from '../support/decider-spec';

const at = '2026-11-21T09:30:00Z';
const given = deciderSpec(enrolmentDecider);

const enrolCommand = (overrides: Partial<Enrol> = {}): Enrol => ({
  type: 'Enrol',
  id: 5,
  learner_id: 7,
  course_id: 3,
  role: 'Student',
  at,
  course: { status: 'Published', title: 'SQL for Analysts' },
  learner: { status: 'Active', full_name: 'Sanne de Jong' },
  ...overrides,
});

const enrolled: LmsEventOf<'LearnerEnrolled'> = {
  type: 'LearnerEnrolled',
  data: {
    id: 5,
    learner_id: 7,
    course_id: 3,
    learner_name: 'Sanne de Jong',
    course_title: 'SQL for Analysts',
    role: 'Student',
    enrolled_at: at,
  },
};

const progress = (value: number, lessonCourseId: number | undefined = 3): RecordProgress => ({
  type: 'RecordProgress',
  progress: value,
  current_lesson_id: 40,
  lessonCourseId,
  at,
});
const recorded = (value: number): LmsEventOf<'EnrolmentProgressRecorded'> => ({
  type: 'EnrolmentProgressRecorded',
  data: { progress: value, current_lesson_id: 40, recorded_at: at },
});

describe('enrolling', () => {
  it('enrols an active learner in a published course, keeping both names', () => {
    given([]).when(enrolCommand()).then([enrolled]);
  });

  it.each(['Draft', 'Under Review', 'Archived'] as const)(
    'refuses a course that is %s, naming course_id',
    (status) => {
      given([])
        .when(enrolCommand({ course: { status, title: 'SQL' } }))
        .thenThrows({
          code: 'validation_error',
          message: expect.stringMatching(/^course_id: .*not published/),
        });
    },
  );

  it('refuses a course or a learner that does not exist, and an inactive learner', () => {
    given([])
      .when(enrolCommand({ course: undefined }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^course_id/) });
    given([])
      .when(enrolCommand({ learner: undefined }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^learner_id/) });
    given([])
      .when(enrolCommand({ learner: { status: 'Inactive', full_name: 'X' } }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^learner_id/) });
  });

  it('derives one event id per learner and course, so the store refuses a second enrolment', () => {
    expect(enrolmentEventId(7, 3)).toBe(enrolmentEventId(7, 3));
    expect(enrolmentEventId(7, 3)).not.toBe(enrolmentEventId(3, 7));
    expect(enrolmentEventId(7, 3)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('recording progress', () => {
  it('records progress with the current lesson', () => {
    given([enrolled])
      .when(progress(40))
      .then([recorded(40)]);
  });

  it('refuses progress that goes down, and a lesson of another course', () => {
    given([enrolled, recorded(60)])
      .when(progress(40))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^progress/) });
    given([enrolled])
      .when(progress(40, 9))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^current_lesson_id/) });
  });

  it('keeps a complete enrolment complete (409)', () => {
    given([enrolled, recorded(100)])
      .when(progress(100))
      .thenThrows({ code: 'illegal_transition' });
  });

  it('answers not_found for an enrolment that does not exist', () => {
    given([]).when(progress(10)).thenThrows({ code: 'not_found' });
  });
});

describe('learning rules', () => {
  it.each([
    [0, 'Novice'],
    [499, 'Novice'],
    [500, 'Apprentice'],
    [1500, 'Practitioner'],
    [4000, 'Expert'],
    [12_000, 'Master'],
  ])('puts %i XP at level %s', (xp, level) => {
    expect(learnerLevel(xp)).toBe(level);
  });

  it.each([
    [0, 'Incomplete'],
    [1, 'Partially Complete'],
    [99, 'Partially Complete'],
    [100, 'Complete'],
  ])('calls progress %i%% %s', (value, status) => {
    expect(progressStatus(value)).toBe(status);
  });

  it('requires published_on exactly for published courses and a price exactly for paid ones', () => {
    const course = {
      id: 1,
      title: 'SQL for Analysts',
      slug: 'sql-for-analysts',
      short_introduction: 'SQL.',
      description: 'SQL.',
      category: 'Data & Analytics' as const,
      tags: ['data'],
      level: 'Beginner' as const,
      language: 'en',
      instructors: ['Owen Gallagher'],
      paid_course: false,
      price: 0,
      currency: 'EUR',
      enable_certification: true,
      status: 'Published' as const,
      published_on: null,
    };
    const courses = deciderSpec(courseDecider);
    courses([])
      .when({ type: 'CreateCourse', course })
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^published_on/) });
    courses([])
      .when({ type: 'CreateCourse', course: { ...course, status: 'Draft', price: 49 } })
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^price/) });
  });
});
