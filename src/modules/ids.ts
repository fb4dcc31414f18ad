/** The suite's modules, by id: what roles, policies, ports and the configuration name. */
export const MODULE_IDS = ['esm', 'clm', 'hrm', 'market', 'ppm', 'crm', 'lms', 'cms', 'mail', 'fpa'] as const;
export type ModuleId = (typeof MODULE_IDS)[number];
