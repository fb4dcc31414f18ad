import {
  LIVE_STATUSES,
  type CmsEventOf,
  type FormField,
  type FormValue,
  type PageStatus,
  type PageType,
} from '../../events/cms';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type FormSubmitted = CmsEventOf<'FormSubmitted'>;

/** What the decision needs to know about the page a form is submitted to. */
export interface PageFacts {
  title: string;
  status: PageStatus;
  page_type: PageType;
  form_fields: readonly FormField[];
}

export interface SubmitForm {
  type: 'SubmitForm';
  id: number;
  page_id: number;
  form_data: Record<string, FormValue>;
  at: string;
  /** `undefined`: no such page. */
  page: PageFacts | undefined;
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Why a value does not fit its field, or null when it does. */
function problem(field: FormField, value: FormValue): string | null {
  const text = typeof value === 'string' ? value.trim() : null;
  switch (field.field_type) {
    case 'checkbox':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'checkboxes':
      if (!Array.isArray(value)) return 'must be a list of choices';
      return value.every((choice) => field.choices.includes(choice))
        ? null
        : `must be among ${field.choices.join(', ')}`;
    case 'number':
      return typeof value === 'number' || (text !== null && text !== '' && !Number.isNaN(Number(text)))
        ? null
        : 'must be a number';
    case 'dropdown':
    case 'radio':
      return text !== null && field.choices.includes(text)
        ? null
        : `must be one of ${field.choices.join(', ')}`;
    case 'email':
      return text !== null && EMAIL.test(text) ? null : 'must be an email address';
    case 'url':
      return text !== null && /^https?:\/\/\S+$/.test(text) ? null : 'must be a URL';
    case 'date':
      return text !== null && DATE.test(text) ? null : 'must be a date (YYYY-MM-DD)';
    default:
      return text === null ? 'must be text' : null;
  }
}

const isEmpty = (value: FormValue | undefined) =>
  value === undefined || value === '' || value === false || (Array.isArray(value) && value.length === 0);

/** Checks the submitted values against the page's form fields, as Wagtail's form builder does. */
export function checkForm(fields: readonly FormField[], data: Record<string, FormValue>): void {
  const byName = new Map(fields.map((field) => [field.name, field]));
  const issues: { loc: string[]; msg: string; type: string }[] = [];
  for (const name of Object.keys(data)) {
    if (!byName.has(name))
      issues.push({
        loc: ['body', `form_data.${name}`],
        msg: 'is not a field of this form',
        type: 'extra_forbidden',
      });
  }
  for (const field of fields) {
    const value = data[field.name];
    if (isEmpty(value)) {
      if (field.required)
        issues.push({ loc: ['body', `form_data.${field.name}`], msg: 'is required', type: 'missing' });
      continue;
    }
    const wrong = problem(field, value as FormValue);
    if (wrong) issues.push({ loc: ['body', `form_data.${field.name}`], msg: wrong, type: 'value_error' });
  }
  if (issues.length > 0) {
    const message = issues.map((issue) => `${issue.loc[1]}: ${issue.msg}`).join('; ');
    throw new DomainError('validation_error', message, { issues });
  }
}

export const submissionDecider: Decider<SubmitForm, { exists: boolean }, FormSubmitted> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide(command, state) {
    if (state.exists) throw new DomainError('already_exists', `Submission ${command.id} exists`);
    const { page } = command;
    if (!page) throw invalidField('page_id', `page ${command.page_id} does not exist`);
    if (page.page_type !== 'FormPage') throw invalidField('page_id', `page ${command.page_id} has no form`);
    if (!LIVE_STATUSES.includes(page.status)) {
      throw invalidField('page_id', `page ${command.page_id} is not live (${page.status})`);
    }
    checkForm(page.form_fields, command.form_data);
    const { id, page_id, form_data, at } = command;
    return [
      { type: 'FormSubmitted', data: { id, page_id, page_title: page.title, form_data, submit_time: at } },
    ];
  },
};
