import { fieldLabel } from './field-text';

/**
 * Resources as people say them, where the last segment of a list's path (`knowledge`, `changes`) is
 * not quite it; the others read as their segment in words (`organization-teams`: `Organization teams`).
 */
const RESOURCE_NAMES: Readonly<Record<string, string>> = {
  knowledge: 'Knowledge articles',
  changes: 'Change feed',
  leave: 'Leave',
};

export const resourceLabel = (resource: string): string => RESOURCE_NAMES[resource] ?? fieldLabel(resource);
