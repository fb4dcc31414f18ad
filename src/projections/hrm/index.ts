import type { Projector } from '../projection';
import {
  brandsProjection,
  careerSitesProjection,
  departmentsProjection,
  organizationsProjection,
  teamsProjection,
} from './organisation';
import { attendanceProjection, employeesProjection, leaveProjection } from './people';
import {
  applicationsProjection,
  candidatesProjection,
  distributionsProjection,
  jobsProjection,
} from './recruitment';

export * from './organisation';
export * from './people';
export * from './recruitment';

/** The HR and recruitment read models, one document per record, under one checkpoint. */
export const hrmProjector: Projector = {
  name: 'hrm',
  // 2: every record carries created_at and updated_at (`evolveStamped`); 3: a leave application's
  // next_statuses and decision_reason.
  version: 3,
  projections: [
    organizationsProjection,
    brandsProjection,
    careerSitesProjection,
    departmentsProjection,
    teamsProjection,
    employeesProjection,
    leaveProjection,
    attendanceProjection,
    jobsProjection,
    distributionsProjection,
    candidatesProjection,
    applicationsProjection,
  ],
};
