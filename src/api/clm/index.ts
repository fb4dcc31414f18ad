import { clmEvents } from '../../events/clm';
import { clmProjector } from '../../projections/clm';
import { seedContracts } from '../../seed/clm';
import type { ModuleDefinition, ModuleRoute } from '../kit/module';
import { clmAccess } from './access';
import { contractChanges, contractRoutes, contractsCollection } from './contracts';
import { LIST } from './lists';
import { obligationChanges, obligationRoutes, obligationsCollection } from './obligations';
import { counterparties, members, workspaces } from './resources';
import { signatureRoute } from './signatures';

/**
 * Contracts and obligations are served by the module's routes, not the kit's reads: their overdue
 * figures are derived from the clock when read (see clm/due-dates.ts).
 */
export const clmModule: ModuleDefinition = {
  id: 'clm',
  title: 'Contract lifecycle',
  shortTitle: 'Contracts',
  description:
    'Contracts with their versions and obligation figures, obligations, counterparties, and reviewable ' +
    'e-signature payloads (DocuSign, Dropbox Sign; never sent). Private: every data request needs the ' +
    'bearer token and the X-Svc-Organisation workspace header; writes also need X-Svc-Actor.',
  version: '1.0.0',
  itemParam: 'id',
  readErrors: 'envelope',
  list: LIST,
  resources: [counterparties, members, workspaces],
  collections: [contractsCollection, obligationsCollection],
  changes: [contractChanges, obligationChanges],
  writes: [],
  routes: [...contractRoutes, ...obligationRoutes(() => clmModule), signatureRoute as ModuleRoute],
  access: clmAccess,
  events: clmEvents,
  projector: clmProjector,
  seed: seedContracts,
};
