import { marketEvents } from '../../events/market';
import { coverageJob } from '../../market/coverage-job';
import { marketCollections, marketProjector } from '../../projections/market';
import { seedMarket } from '../../seed/market';
import type { ModuleDefinition, ModuleRoute } from '../kit/module';
import type { ModuleJob } from '../../modules/module';
import { marketAccess, sessionRoutes } from './access';
import { assistantRoutes } from './assistant';
import { recordChanges, recordRoutes } from './records';
import { viewRoutes } from './views';

export const marketModule: ModuleDefinition = {
  id: 'market',
  title: 'Market price intelligence',
  shortTitle: 'Market',
  description:
    'Read-only, evidence-backed data on clinic competitors, locations, treatment prices and collection ' +
    'coverage across the 30 EEA markets, plus a streamed analysis assistant. Every data endpoint needs ' +
    'the signed session cookie `svc_session` (POST /api/session) or a bearer credential holding its ' +
    '`market:` role.',
  version: '1.0.0',
  itemParam: 'id',
  readErrors: 'envelope',
  list: { defaultLimit: 50, maxLimit: 200 },
  resources: [],
  collections: marketCollections,
  changes: recordChanges,
  writes: [],
  routes: [...sessionRoutes, ...viewRoutes, ...recordRoutes, ...assistantRoutes] as ModuleRoute[],
  jobs: [coverageJob as ModuleJob],
  access: marketAccess,
  events: marketEvents,
  projector: marketProjector,
  seed: seedMarket,
};
