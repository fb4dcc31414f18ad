import type { RecordRef } from '../../audit/record-history';
import { ApiError } from '../kit/errors';
import type { ModuleDefinition } from '../kit/module';
import { parseItemId } from '../kit/reads';
import { shortened } from '../kit/validation';

/** What names a record on the audit API: `/<module>/<resource>/<id>`. */
export interface RecordPath {
  module: string;
  resource: string;
  id: string;
}

/**
 * The record a path names, and where its events are; 404 when no module serves that resource, 422
 * when the id is not one of its ids.
 */
export function auditedRecord(modules: readonly ModuleDefinition[], path: RecordPath): RecordRef {
  const module = modules.find((candidate) => candidate.id === path.module);
  const resource = module?.resources.find((candidate) => candidate.path === path.resource);
  // Read models served by a module's own routes (CLM contracts) are named `<module>.<path>`.
  const collection =
    resource?.collection ??
    module?.collections?.find((candidate) => candidate.name === `${path.module}.${path.resource}`);
  const projection = module?.projector.projections.find(
    (candidate) => candidate.collection === collection?.name,
  );
  if (!module || !collection || !projection) {
    throw new ApiError('not_found', `No audited resource ${shortened(`${path.module}/${path.resource}`)}`);
  }
  const id = parseItemId(module, { collection }, path.id);
  if (typeof id === 'object') throw new ApiError('validation_error', `id: ${id.msg}`, { issues: [id] });
  return {
    module: module.id,
    projection,
    id,
    name: resource?.name ?? shortened(path.resource),
    target: `${module.id} ${path.resource}/${path.id}`,
  };
}
