import { createHash } from 'node:crypto';
import { isoDate, isoTimestamp } from '../clock';
import {
  createPage,
  publishPage,
  saveRevision,
  submitForm,
  uploadDocument,
  uploadImage,
} from '../commands/cms/handlers';
import { urlPath } from '../commands/cms/pages';
import type { FormValue, PageStatus, PageType } from '../events/cms';
import type { SeedContext } from './context';
import {
  ABOUT_PAGES,
  BLOG_PATTERNS,
  BLOG_TOPICS,
  CUSTOMER_STORIES,
  DOCUMENT_KINDS,
  DOCUMENT_LANGUAGES,
  EDITORS,
  EVENTS,
  FORMS,
  IMAGE_SUBJECTS,
  IMAGE_VARIANTS,
  OFFICES,
  PARAGRAPHS,
  PRODUCT_PAGES,
  SECTIONS,
  sectionTitle,
  SOLUTION_PAGES,
  WHITEPAPERS,
  type FormKind,
  type Locale,
} from './cms-data';
import { COUNTRIES } from './crm-data';
import { slugify, sample, writeInGroups, writeTimeline, type TimelineStep } from './toolkit';

const DAY = 86_400_000;
/** The day the site moved to the suite: the pages, images and documents of then were imported. */
const IMPORTED = new Date('2026-05-04T08:00:00Z').getTime();
const SEED_END = new Date('2026-11-20T17:00:00Z').getTime();

type Random = SeedContext['random'];

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

interface PagePlan {
  id: number;
  /** What the page is (`blog:<title>`), shared by its translations. */
  key: string;
  locale: Locale;
  parent: PagePlan | null;
  type: PageType;
  title: string;
  form?: FormKind;
  status: PageStatus;
  /** When it is created; for pages created in the demo window, when they are published (if they are). */
  created: number;
  publishAt: number | null;
  reviseAt: number | null;
}

const RENDITIONS = ['max-165x165', 'fill-300x200', 'width-800'];

function rendition(spec: string, width: number, height: number, file: string) {
  const [kind, size] = spec.split('-') as [string, string];
  const [w, h] = size.split('x').map(Number) as [number, number | undefined];
  const scale = kind === 'width' ? w / width : Math.min(w / width, (h ?? w) / height);
  const dims =
    kind === 'fill'
      ? { width: w, height: h ?? w }
      : { width: Math.round(width * scale), height: Math.round(height * scale) };
  return {
    filter_spec: spec,
    ...dims,
    file: file.replace('original_images/', 'images/').replace(/\.jpg$/, `.${spec}.jpg`),
  };
}

/** The site tree: per locale a home page, its sections and their pages (English has the most). */
function planSite(random: Random): PagePlan[] {
  const pages: PagePlan[] = [];
  const add = (
    locale: Locale,
    parent: PagePlan | null,
    key: string,
    type: PageType,
    title: string,
    form?: FormKind,
  ) => {
    const plan: PagePlan = {
      id: 0,
      key,
      locale,
      parent,
      type,
      title,
      form,
      status: 'Live',
      created: IMPORTED,
      publishAt: null,
      reviseAt: null,
    };
    pages.push(plan);
    return plan;
  };
  const blogTitles = BLOG_PATTERNS.flatMap((pattern) =>
    BLOG_TOPICS.map((topic) =>
      pattern.replace('{topic}', topic).replace('{Topic}', topic[0]?.toUpperCase() + topic.slice(1)),
    ),
  );
  const englishBlog = sample(random, blogTitles, 90);
  for (const locale of ['en', 'de', 'fr', 'nl'] as const) {
    const full = locale === 'en';
    const section = (name: keyof typeof SECTIONS, type: PageType = 'IndexPage', form?: FormKind) =>
      add(locale, home, `section:${name}`, type, sectionTitle(name, locale), form);
    const home = add(locale, null, 'home', 'HomePage', sectionTitle('home', locale));
    const products = section('products');
    const solutions = section('solutions');
    const customers = full || locale === 'de' ? section('customers') : null;
    const blog = section('blog');
    const events = section('events');
    const resources = section('resources');
    const about = section('about');
    const careers = section('careers');
    section('contact', 'FormPage', 'contact');
    add(locale, products, 'form:demo', 'FormPage', sectionTitle('demo', locale), 'demo');
    add(locale, blog, 'form:newsletter', 'FormPage', sectionTitle('newsletter', locale), 'newsletter');
    for (const product of PRODUCT_PAGES) add(locale, products, `product:${product}`, 'LandingPage', product);
    for (const solution of full || locale === 'de' ? SOLUTION_PAGES : SOLUTION_PAGES.slice(0, 4))
      add(locale, solutions, `solution:${solution}`, 'LandingPage', solution);
    if (customers)
      for (const story of full ? CUSTOMER_STORIES : CUSTOMER_STORIES.slice(0, 5))
        add(locale, customers, `story:${story}`, 'ArticlePage', story);
    // Articles not yet translated keep their English title, as synced translations do.
    for (const title of full ? englishBlog : englishBlog.slice(0, locale === 'de' ? 25 : 8))
      add(locale, blog, `blog:${title}`, 'ArticlePage', title);
    for (const event of full ? EVENTS : EVENTS.slice(0, locale === 'de' ? 6 : 3))
      add(locale, events, `event:${event}`, 'FormPage', event, 'event');
    for (const paper of full ? WHITEPAPERS : WHITEPAPERS.slice(0, 4))
      add(locale, resources, `paper:${paper}`, 'FormPage', paper, 'whitepaper');
    for (const page of ABOUT_PAGES) add(locale, about, `about:${page}`, 'ArticlePage', page);
    for (const office of full ? OFFICES : OFFICES.slice(0, 2))
      add(locale, careers, `office:${office}`, 'LandingPage', `Working in ${office}`);
  }
  // What happened to each page: most are live; blog posts of the last months were written here.
  for (const page of pages) {
    if (page.key.startsWith('event:')) {
      page.status = EVENTS.indexOf(page.key.slice(6)) % 2 === 0 ? 'Expired' : 'Live';
    } else if (page.key.startsWith('blog:') || page.key.startsWith('story:')) {
      if (page.locale !== 'fr' && page.locale !== 'nl' && random.chance(0.35)) {
        page.created = IMPORTED + random.int(1, 190) * DAY + random.int(0, 80_000) * 1000;
        const publishAt = page.created + random.int(1, 12) * DAY;
        page.status = 'Draft';
        page.publishAt = publishAt <= SEED_END && random.chance(0.85) ? publishAt : null;
        if (page.publishAt === null && random.chance(0.4)) page.status = 'In Moderation';
      } else {
        page.status = random.weighted({
          Live: 78,
          'Live + Draft': 6,
          Draft: 5,
          Scheduled: 5,
          Expired: 3,
          'In Moderation': 3,
        });
      }
      const revised = (page.publishAt ?? IMPORTED) + random.int(3, 120) * DAY;
      if ((page.publishAt !== null || page.status === 'Live') && revised <= SEED_END && random.chance(0.15))
        page.reviseAt = revised;
    } else if (page.type === 'LandingPage') {
      page.status = random.weighted({ Live: 85, 'Live + Draft': 15 });
    }
  }
  return pages;
}

const person = (random: Random) => {
  const country = random.pick(COUNTRIES);
  const first = random.pick(country.firstNames);
  const last = random.pick(country.lastNames);
  return {
    country,
    first,
    last,
    email: `${slugify(first)}.${slugify(last)}@${random.pick(['gmail.com', 'outlook.com', 'web.de', 'orange.fr', 'ziggo.nl'])}`,
  };
};

function formData(random: Random, kind: FormKind): Record<string, FormValue> {
  const who = person(random);
  const company = `${random.pick(['Alpen', 'Nord', 'Delta', 'Meri', 'Luma', 'Hansa'])}${random.pick(['tec', 'log', 'med', 'fin', 'ware'])} ${random.pick(who.country.legalForms)}`;
  switch (kind) {
    case 'contact':
      return {
        name: `${who.first} ${who.last}`,
        email: who.email,
        company,
        topic: random.weighted({ Sales: 45, Support: 30, Partnerships: 10, Press: 5, Other: 10 }),
        message: random.pick([
          'Could you send me pricing for 250 users?',
          'We would like to know whether you support single sign-on with Entra ID.',
          'Is there a partner in our region who can help with the rollout?',
          'Our invoice shows the wrong VAT number, whom should I contact?',
          'Please call me back about an interview for our trade magazine.',
        ]),
        consent: true,
      };
    case 'demo':
      return {
        first_name: who.first,
        last_name: who.last,
        email: who.email,
        company,
        employees: random.weighted({ '1-50': 15, '51-200': 35, '201-1000': 35, '1000+': 15 }),
        products: sample(random, PRODUCT_PAGES, random.int(1, 3)),
        ...(random.chance(0.6) && {
          phone: `${who.country.phone} ${random.int(100, 999)} ${random.int(100000, 999999)}`,
        }),
        ...(random.chance(0.5) && { preferred_date: isoDate(new Date(SEED_END + random.int(2, 30) * DAY)) }),
        consent: true,
      };
    case 'newsletter':
      return {
        email: who.email,
        language: random.weighted({ English: 50, Deutsch: 25, Français: 12, Nederlands: 13 }),
        topics: sample(random, ['Product news', 'Events', 'Customer stories'], random.int(0, 3)),
      };
    case 'event':
      return {
        first_name: who.first,
        last_name: who.last,
        email: who.email,
        company,
        attendance: random.weighted({ 'In person': 60, Online: 40 }),
        dietary: random.weighted({ None: 70, Vegetarian: 18, Vegan: 7, 'Gluten-free': 5 }),
        consent: true,
      };
    case 'whitepaper':
      return {
        email: who.email,
        company,
        ...(random.chance(0.7) && {
          job_title: random.pick(['CIO', 'IT Manager', 'Head of HR', 'Controller', 'PMO Lead']),
        }),
        country: random.weighted({
          Germany: 35,
          France: 15,
          Netherlands: 15,
          Belgium: 10,
          Austria: 10,
          Other: 15,
        }),
        consent: true,
      };
  }
}

const SUBMISSIONS: Record<FormKind, [number, number]> = {
  contact: [60, 140],
  demo: [50, 120],
  newsletter: [80, 180],
  event: [15, 45],
  whitepaper: [15, 40],
};

/**
 * The content site's demo data: 300 images with renditions and 200 documents, a four-locale page
 * tree of about 320 pages (imported on 2026-05-04, blog posts written and published since), and
 * some 850 form submissions received by its live form pages.
 */
export async function seedContent(seed: SeedContext): Promise<void> {
  const { random } = seed;

  const images = IMAGE_SUBJECTS.flatMap((subject) => IMAGE_VARIANTS.map((variant) => ({ subject, variant })));
  const imageIds = await writeInGroups(
    seed,
    images,
    () => new Date(IMPORTED),
    (commands, { subject, variant }) => {
      const title = variant ? `${subject.title} (${variant})` : subject.title;
      const [width, height] = random.pick([
        [6000, 4000],
        [3840, 2160],
        [2400, 3000],
        [2048, 2048],
        [4032, 3024],
      ] as const);
      const file = `original_images/${slugify(title)}.jpg`;
      return uploadImage(commands, {
        title,
        file,
        width,
        height,
        file_size: Math.round(width * height * (0.18 + random.float() * 0.2)),
        file_hash: sha1(file),
        focal_point: random.chance(0.6)
          ? {
              x: random.int(width / 4, (3 * width) / 4),
              y: random.int(height / 4, (3 * height) / 4),
              width: Math.round(width / 5),
              height: Math.round(height / 5),
            }
          : null,
        tags: [...subject.tags, ...(variant ? [variant] : [])],
        collection: subject.collection,
        uploaded_by: random.pick(EDITORS),
        renditions: [...RENDITIONS, ...(subject.collection === 'Blog' ? ['fill-1200x630'] : [])].map((spec) =>
          rendition(spec, width, height, file),
        ),
      });
    },
  );

  const documents = DOCUMENT_KINDS.flatMap((kind) =>
    kind.per.flatMap((item) =>
      (kind.collection === 'Events' ? ['EN'] : DOCUMENT_LANGUAGES).map((language) => ({
        kind,
        item,
        language,
      })),
    ),
  );
  await writeInGroups(
    seed,
    documents,
    () => new Date(IMPORTED),
    (commands, { kind, item, language }) => {
      const title = `${kind.title.replace('{item}', item)} (${language})`;
      const file = `documents/${slugify(title)}.pdf`;
      return uploadDocument(commands, {
        title,
        file,
        file_size: random.int(80, 9000) * 1024,
        file_hash: sha1(file),
        mime_type: 'application/pdf',
        tags: [...kind.tags, language.toLowerCase()],
        collection: kind.collection,
        uploaded_by: random.pick(EDITORS),
      });
    },
  );

  const pages = planSite(random);
  const depth = (page: PagePlan): number => (page.parent ? depth(page.parent) + 1 : 0);
  for (let level = 0; level <= 2; level++) {
    const batch = pages.filter((page) => depth(page) === level).sort((a, b) => a.created - b.created);
    const ids = await writeInGroups(
      seed,
      batch,
      (page) => new Date(page.created),
      (commands, page) => {
        const published = ['Live', 'Live + Draft', 'Expired'].includes(page.status);
        const first = page.created - random.int(30, 700) * DAY;
        const last = Math.min(page.created - DAY, first + random.int(0, 300) * DAY);
        const slug = page.parent ? slugify(page.title) : 'home';
        const imageId = (imageIds[random.int(0, imageIds.length - 1)] as { id: number }).id;
        const cta = page.locale === 'en' ? 'Request a demo' : sectionTitle('demo', page.locale);
        return createPage(commands, {
          parent_id: page.parent?.id ?? null,
          page_type: page.type,
          locale: page.locale,
          translation_key: translationKey(page.key),
          title: page.title,
          slug,
          url_path: urlPath(page.parent ? urlOf(page.parent) : null, page.locale, slug),
          seo_title: `${page.title} | Northwind`,
          search_description: random.pick(PARAGRAPHS),
          body: [
            { type: 'heading', value: page.title },
            { type: 'paragraph', value: random.pick(PARAGRAPHS) },
            { type: 'image', value: imageId },
            { type: 'paragraph', value: random.pick(PARAGRAPHS) },
            {
              type: 'call_to_action',
              value: {
                text: cta,
                url: `/${page.locale}/${slugify(sectionTitle('products', page.locale))}/`,
              },
            },
          ],
          form_fields: page.form ? [...FORMS[page.form]] : [],
          owner: random.pick(EDITORS),
          status: page.status,
          first_published_at: published ? isoTimestamp(new Date(first)) : null,
          last_published_at: published ? isoTimestamp(new Date(last)) : null,
          go_live_at:
            page.status === 'Scheduled' ? isoTimestamp(new Date(SEED_END + random.int(2, 40) * DAY)) : null,
          expire_at:
            page.status === 'Expired' ? isoTimestamp(new Date(page.created - random.int(1, 30) * DAY)) : null,
        });
      },
    );
    batch.forEach((page, index) => (page.id = (ids[index] as { id: number }).id));
  }

  const steps: TimelineStep[] = [];
  for (const page of pages) {
    if (page.publishAt !== null)
      steps.push({
        at: new Date(page.publishAt),
        key: `page-${page.id}`,
        write: (commands) => publishPage(commands, page.id),
      });
    if (page.reviseAt !== null)
      steps.push({
        at: new Date(page.reviseAt),
        key: `page-${page.id}`,
        write: (commands) => saveRevision(commands, page.id),
      });
  }
  await writeTimeline(seed, steps);

  const submissions = pages
    .filter((page) => page.form && (page.status === 'Live' || page.status === 'Live + Draft'))
    .flatMap((page) => {
      const [min, max] = SUBMISSIONS[page.form as FormKind];
      const count = Math.round(random.int(min, max) * (page.locale === 'en' ? 0.65 : 0.25));
      return Array.from({ length: count }, () => ({
        page,
        at: IMPORTED + random.float() * (SEED_END - IMPORTED),
      }));
    })
    .sort((a, b) => a.at - b.at);
  await writeInGroups(
    seed,
    submissions,
    ({ at }) => new Date(Math.floor(at / 1000) * 1000),
    (commands, { page }) =>
      submitForm(commands, { page_id: page.id, form_data: formData(random, page.form as FormKind) }),
  );
}

function urlOf(page: PagePlan): string {
  return urlPath(
    page.parent ? urlOf(page.parent) : null,
    page.locale,
    page.parent ? slugify(page.title) : 'home',
  );
}

/** The translation key of a page: a UUID derived from what the page is, shared by its translations. */
function translationKey(key: string): string {
  const hex = sha1(`cms.translation:${key}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
