/** What a non-null personal field reads once its data subject is erased. */
export const ERASED = '[erased]';

/** A field name as a label: `employee_name` as `Employee name`. */
export const fieldLabel = (name: string): string => {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};
