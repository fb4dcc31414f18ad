import type { LmsEventOf } from '../../events/lms';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type CourseCreated = LmsEventOf<'CourseCreated'>;
type LessonAdded = LmsEventOf<'LessonAdded'>;
type LearnerRegistered = LmsEventOf<'LearnerRegistered'>;

export type CreateCourse = { type: 'CreateCourse'; course: CourseCreated['data'] };

export const courseDecider: Decider<CreateCourse, { exists: boolean }, CourseCreated> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ course }, state) {
    if (state.exists) throw new DomainError('already_exists', `Course ${course.id} exists`);
    if ((course.status === 'Published' || course.status === 'Archived') !== (course.published_on !== null)) {
      throw invalidField('published_on', 'is set exactly when the course has been published');
    }
    if (course.paid_course !== course.price > 0)
      throw invalidField('price', 'is above 0 exactly for a paid course');
    return [{ type: 'CourseCreated', data: course }];
  },
};

export type AddLesson = { type: 'AddLesson'; lesson: LessonAdded['data']; courseExists: boolean };

export const lessonDecider: Decider<AddLesson, { exists: boolean }, LessonAdded> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ lesson, courseExists }, state) {
    if (state.exists) throw new DomainError('already_exists', `Lesson ${lesson.id} exists`);
    if (!courseExists) throw invalidField('course_id', `course ${lesson.course_id} does not exist`);
    return [{ type: 'LessonAdded', data: lesson }];
  },
};

export type RegisterLearner = { type: 'RegisterLearner'; learner: LearnerRegistered['data'] };

export const learnerDecider: Decider<RegisterLearner, { exists: boolean }, LearnerRegistered> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ learner }, state) {
    if (state.exists) throw new DomainError('already_exists', `Learner ${learner.id} exists`);
    return [{ type: 'LearnerRegistered', data: learner }];
  },
};
