import { hrmEvents } from '../../events/hrm';
import { hrmProjector } from '../../projections/hrm';
import { seedHrm } from '../../seed/hrm';
import type { ModuleDefinition } from '../kit/module';
import { HRM_RESOURCES } from './resources';
import { HRM_WRITES } from './writes';

export const hrmModule: ModuleDefinition = {
  id: 'hrm',
  title: 'HR and recruitment',
  shortTitle: 'HR',
  description:
    'HR and recruitment API, version v1 (schema refreshed on 2026-08-08): employees, departments, leave, ' +
    'attendance, job openings, candidates, applications, recruitment organisations, brands, career sites, ' +
    'recruiting teams and job distributions. Reads are public; writes (leave applications and decisions, ' +
    'attendance) need a bearer token.',
  version: 'v1',
  itemParam: 'id',
  readErrors: 'envelope',
  list: { defaultLimit: 50, maxLimit: 200 },
  resources: HRM_RESOURCES,
  writes: HRM_WRITES,
  events: hrmEvents,
  projector: hrmProjector,
  seed: seedHrm,
};
