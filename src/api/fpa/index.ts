import { fpaEvents } from '../../events/fpa';
import { PlanRecord, ScenarioRecord, fpaProjector } from '../../projections/fpa';
import { seedPlanning } from '../../seed/fpa';
import type { ModuleDefinition, ResourceDefinition } from '../kit/module';
import type { ModuleJob } from '../../modules/module';
import { planJob } from './plan-job';
import { fpaRoutes } from './routes';

const scenarios: ResourceDefinition = {
  path: 'scenarios',
  name: 'Scenario',
  description: 'planning scenarios: drivers, seed and the latest generation',
  record: ScenarioRecord,
  collection: {
    name: 'fpa.scenarios',
    idKind: 'string',
    searchFields: ['id', 'name', 'description'],
    filterFields: [],
  },
};

const plans: ResourceDefinition = {
  path: 'plans',
  name: 'Plan',
  description:
    'the latest generation of each scenario as recorded: inputs, generator version, output SHA-256 and the ' +
    'output in integer cents, for an auditor to recompute',
  record: PlanRecord,
  collection: { name: 'fpa.plans', idKind: 'string', searchFields: ['scenario'], filterFields: [] },
};

export const fpaModule: ModuleDefinition = {
  id: 'fpa',
  title: 'Financial planning',
  shortTitle: 'Financial planning',
  description:
    'Deterministic financial plans per scenario, computed by workers from drivers and a seed: monthly ' +
    'statements, recurring-revenue metrics, variances against synthetic actuals and source status. ' +
    'Amounts are decimal numbers with two places in the plan currency. Reads are public.',
  version: '1.0.0',
  itemParam: 'scenario',
  readErrors: 'envelope',
  list: { defaultLimit: 50, maxLimit: 200 },
  resources: [scenarios, plans],
  writes: [],
  routes: fpaRoutes,
  jobs: [planJob as ModuleJob],
  events: fpaEvents,
  projector: fpaProjector,
  seed: seedPlanning,
};
