/** What a non-null personal field reads once its data subject is erased. */
export const ERASED = '[erased]';

/** Words of field names that people write in capitals. */
const ACRONYMS = /\b(sla|url|okr|kpi)\b/g;

/** A field name as a label: `employee_name` as `Employee name`, `sla_state` as `SLA state`. */
export const fieldLabel = (name: string): string => {
  const words = name
    .replace(/[_-]+/g, ' ')
    .trim()
    .replace(ACRONYMS, (word) => word.toUpperCase());
  return words.charAt(0).toUpperCase() + words.slice(1);
};
