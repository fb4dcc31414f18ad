/**
 * Stream categories. A category never contains a dash: the number after the dash is the entity id.
 * `calendar` streams are numbered by employee id.
 */
export const hrmCategories = {
  organization: 'hrm.organization',
  brand: 'hrm.brand',
  careerSite: 'hrm.careersite',
  department: 'hrm.department',
  team: 'hrm.team',
  employee: 'hrm.employee',
  calendar: 'hrm.calendar',
  leave: 'hrm.leave',
  attendance: 'hrm.attendance',
  job: 'hrm.job',
  distribution: 'hrm.distribution',
  candidate: 'hrm.candidate',
  application: 'hrm.application',
} as const;

export type HrmCategory = keyof typeof hrmCategories;

export const hrmStream = (category: HrmCategory, entityId: number) =>
  `${hrmCategories[category]}-${entityId}`;
