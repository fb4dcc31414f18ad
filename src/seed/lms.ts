import { isoDate } from '../clock';
import { addLesson, createCourse, enrol, recordProgress, registerLearner } from '../commands/lms/handlers';
import type { CourseStatus } from '../events/lms';
import type { SeedContext } from './context';
import { COUNTRIES } from './crm-data';
import { CATALOGUE, CHAPTERS, INSTRUCTORS, LEARNER_COMPANIES, LEARNER_TITLES } from './lms-data';
import { slugify, sample, writeInGroups, writeTimeline, type TimelineStep } from './toolkit';

const DAY = 86_400_000;
/** The day the academy moved to the suite: published courses and existing learners were imported. */
const IMPORTED = new Date('2026-05-04T08:00:00Z').getTime();
const SEED_END = new Date('2026-11-20T17:00:00Z').getTime();
const LEARNER_COUNT = 400;

type Random = SeedContext['random'];
type ContentType = 'Video' | 'Article' | 'Quiz' | 'Assignment' | 'Live Session';

const FIXED_TYPES: Record<string, ContentType> = {
  'Check your understanding': 'Quiz',
  'Final quiz': 'Quiz',
  'Hands-on exercise': 'Assignment',
  'Reflection assignment': 'Assignment',
  'Practice scenario': 'Assignment',
  'Expert interview': 'Video',
  'Case study': 'Article',
};

const MINUTES: Record<ContentType, [number, number]> = {
  Video: [5, 20],
  Article: [5, 15],
  Quiz: [5, 15],
  Assignment: [20, 60],
  'Live Session': [45, 90],
};

const XP: Record<ContentType, [number, number]> = {
  Video: [10, 20],
  Article: [10, 15],
  Quiz: [30, 50],
  Assignment: [50, 100],
  'Live Session': [20, 40],
};

interface CoursePlan {
  id: number;
  subject: string;
  published: number;
  category: (typeof CATALOGUE)[number]['category'];
  status: CourseStatus;
  created: number;
  /** How many chapters: the first ones of CHAPTERS, then the wrap-up. */
  chapters: number;
  lessons: number[];
}

function planCourses(random: Random): CoursePlan[] {
  return CATALOGUE.flatMap(({ category, subjects }) =>
    subjects.map((subject): CoursePlan => {
      const status = random.weighted({ Published: 80, Draft: 8, 'Under Review': 6, Archived: 6 });
      const published =
        status === 'Archived'
          ? IMPORTED - random.int(200, 500) * DAY
          : IMPORTED - random.int(-150, 400) * DAY;
      const created =
        status === 'Draft' || status === 'Under Review'
          ? IMPORTED + random.int(5, 190) * DAY
          : Math.max(IMPORTED, published);
      return {
        id: 0,
        subject,
        category,
        status,
        created,
        chapters: random.int(3, 5),
        lessons: [],
        published,
      };
    }),
  );
}

/**
 * The learning platform's demo data: 84 courses in twelve categories with their chapters and
 * lessons, 400 learners, and their enrolments over six months with their latest progress.
 */
export async function seedLearning(seed: SeedContext): Promise<void> {
  const { random } = seed;
  const courses = planCourses(random);
  const courseIds = await writeInGroups(
    seed,
    courses,
    (course) => new Date(course.created),
    (commands, course) => {
      const entry = CATALOGUE.find((candidate) => candidate.category === course.category);
      const paid = course.category !== 'Compliance' && random.chance(0.15);
      return createCourse(commands, {
        title: course.subject,
        slug: slugify(course.subject),
        short_introduction: `${course.subject}: a practical ${course.category.toLowerCase()} course for busy professionals.`,
        description:
          `Learn ${course.subject.toLowerCase()} step by step in ${course.chapters} chapters, with examples from ` +
          'real teams, exercises you can use at work the next day and a short assessment at the end.',
        category: course.category,
        tags: [...(entry?.tags ?? []), ...(course.category === 'Compliance' ? ['annual'] : [])],
        level: random.weighted({ Beginner: 50, Intermediate: 35, Advanced: 15 }),
        language: random.weighted({ en: 80, de: 10, fr: 5, nl: 5 }),
        instructors: sample(random, INSTRUCTORS, random.int(1, 2)),
        paid_course: paid,
        price: paid ? random.int(5, 40) * 10 - 1 : 0,
        currency: 'EUR',
        enable_certification: course.category === 'Compliance' || random.chance(0.4),
        status: course.status,
        published_on:
          course.status === 'Published' || course.status === 'Archived'
            ? isoDate(new Date(course.published))
            : null,
      });
    },
  );
  courses.forEach((course, index) => (course.id = (courseIds[index] as { id: number }).id));

  const lessonPlans = courses.flatMap((course) => {
    const chapters = [
      ...CHAPTERS.slice(0, course.chapters - 1),
      CHAPTERS[CHAPTERS.length - 1] as (typeof CHAPTERS)[number],
    ];
    return chapters.flatMap((chapter, chapterIndex) =>
      chapter.lessons.slice(0, random.int(2, 3)).map((title, lessonIndex) => {
        const type = FIXED_TYPES[title] ?? random.weighted({ Video: 55, Article: 35, 'Live Session': 10 });
        return { course, chapter, chapterIndex, title, lessonIndex, type };
      }),
    );
  });
  const lessonIds = await writeInGroups(
    seed,
    lessonPlans,
    (plan) => new Date(plan.course.created),
    (commands, plan) => {
      const [minMinutes, maxMinutes] = MINUTES[plan.type];
      const [minXp, maxXp] = XP[plan.type];
      return addLesson(commands, {
        course_id: plan.course.id,
        chapter_number: plan.chapterIndex + 1,
        chapter_title: plan.chapter.title,
        lesson_number: plan.lessonIndex + 1,
        title: plan.title.replace('{subject}', plan.course.subject),
        content_type: plan.type,
        duration_minutes: random.int(minMinutes, maxMinutes),
        xp: random.int(minXp / 5, maxXp / 5) * 5,
        include_in_preview: plan.chapterIndex === 0 && plan.lessonIndex === 0,
      });
    },
  );
  lessonPlans.forEach((plan, index) => plan.course.lessons.push((lessonIds[index] as { id: number }).id));

  const usernames = new Set<string>();
  const learners = Array.from({ length: LEARNER_COUNT }, () => {
    const country = random.pick(COUNTRIES);
    const first = random.pick(country.firstNames);
    const last = random.pick(country.lastNames);
    let username = slugify(`${first}.${last}`).replace(/-/g, '.');
    for (let n = 2; usernames.has(username); n++)
      username = `${slugify(`${first}.${last}`).replace(/-/g, '.')}${n}`;
    usernames.add(username);
    const joined = random.chance(0.7)
      ? IMPORTED
      : IMPORTED + random.int(1, 190) * DAY + random.int(0, 86_000) * 1000;
    return { id: 0, country, name: `${first} ${last}`, username, joined, active: random.chance(0.92) };
  });
  const learnerIds = await writeInGroups(
    seed,
    learners,
    (learner) => new Date(learner.joined),
    (commands, learner) =>
      registerLearner(commands, {
        full_name: learner.name,
        username: learner.username,
        email: `${learner.username}@northwind.example`,
        country: learner.country.code,
        company: random.chance(0.9) ? random.pick(LEARNER_COMPANIES) : null,
        job_title: random.chance(0.85) ? random.pick(LEARNER_TITLES) : null,
        xp: Math.round(Math.pow(random.float(), 2.2) * 120) * 90,
        status: learner.active ? 'Active' : 'Inactive',
      }),
  );
  learners.forEach((learner, index) => (learner.id = (learnerIds[index] as { id: number }).id));

  const published = courses.filter((course) => course.status === 'Published');
  const enrolments = learners
    .filter((learner) => learner.active)
    .flatMap((learner) =>
      sample(random, published, Number(random.weighted({ 1: 35, 2: 35, 3: 20, 4: 10 }))).map((course) => {
        const from = Math.max(learner.joined, course.created);
        const enrolled = from + random.float() * (SEED_END - from);
        return {
          id: 0,
          learner,
          course,
          enrolled,
          pace: random.int(7, 90) * DAY,
          starts: random.chance(0.85),
        };
      }),
    )
    .sort((a, b) => a.enrolled - b.enrolled);
  const enrolmentIds = await writeInGroups(
    seed,
    enrolments,
    (plan) => new Date(plan.enrolled),
    (commands, plan) =>
      enrol(commands, {
        learner_id: plan.learner.id,
        course_id: plan.course.id,
        role: random.weighted({ Student: 94, Mentor: 4, Staff: 2 }),
      }),
  );
  enrolments.forEach((plan, index) => (plan.id = (enrolmentIds[index] as { id: number }).id));

  const steps: TimelineStep[] = [];
  for (const plan of enrolments.filter((candidate) => candidate.starts)) {
    const lessons = plan.course.lessons;
    const progressAt = (time: number) =>
      Math.min(100, Math.round(((time - plan.enrolled) / plan.pace) * 100));
    const lessonAt = (progress: number) =>
      lessons[Math.min(lessons.length - 1, Math.floor((progress / 100) * lessons.length))] as number;
    // The latest progress the platform recorded: when the course was done, or at the last activity.
    const done = plan.enrolled + plan.pace;
    const time =
      done <= SEED_END ? done : plan.enrolled + (SEED_END - plan.enrolled) * (0.5 + random.float() / 2);
    const progress = progressAt(time);
    if (progress === 0) continue;
    steps.push({
      at: new Date(time),
      key: `enrolment-${plan.id}`,
      write: (commands) =>
        recordProgress(commands, plan.id, { progress, current_lesson_id: lessonAt(progress) }),
    });
  }
  await writeTimeline(seed, steps);
}
