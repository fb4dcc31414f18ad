/** What a non-null personal field reads once its data subject is erased. */
export const ERASED = '[erased]';

/** Words of field names that people write in capitals. */
const ACRONYMS = /\b(sla|url|okr|kpi)\b/g;

/**
 * A field name as people say it: `employee_name` as `Employee name`, `sla_state` as `SLA state`, and
 * a reference by what it names (`assignee_id` as `Assignee`, `is_active` as `Active`).
 */
export const fieldLabel = (name: string): string => {
  const words = name
    .replace(/^is_(?=.)/, '')
    .replace(/(?<=.)_id$/, '')
    .replace(/^id$/, 'ID')
    .replace(/[_-]+/g, ' ')
    .trim()
    .replace(ACRONYMS, (word) => word.toUpperCase());
  return words.charAt(0).toUpperCase() + words.slice(1);
};
