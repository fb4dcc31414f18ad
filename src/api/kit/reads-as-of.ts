import type { Filter, ReadStore } from '../../projections/read-store';
import { withNames } from './record-names';
import { ApiError } from './errors';
import type { ModuleDefinition, ResourceDefinition } from './module';
import { errorAnswer, invalidParameters, parseItemId, type ReadAnswer } from './reads';
import { moduleRecord, timeTravelQuery, travelledRecord, type TimeTravelServices } from './time-travel';
import { shortened } from './validation';

/**
 * `GET /api/v1/<resource>/{id}?as_of=…|as_of_position=…&valid_at=…`: the record folded by its own
 * projection from its events within the cut, with `meta` naming the cut; 404 when it did not exist
 * then, or was of another scope.
 */
export async function readItemAsOf(
  module: ModuleDefinition,
  resource: ResourceDefinition,
  services: TimeTravelServices & { readStore: Pick<ReadStore, 'loadTexts'> },
  rawId: string,
  query: URLSearchParams,
  scope?: Filter,
): Promise<ReadAnswer> {
  const id = parseItemId(module, resource, rawId);
  if (typeof id === 'object') return invalidParameters(module, [id]);
  const travel = timeTravelQuery(query);
  if (Array.isArray(travel)) return invalidParameters(module, travel);
  const record = moduleRecord(module, resource.collection.name, id, resource);
  const found = await travelledRecord(services, record, travel);
  if (found !== null && 'loc' in found) return invalidParameters(module, [found]);
  if (found === null || (scope && found.data[scope.field] !== scope.value)) {
    return errorAnswer(new ApiError('not_found', `${resource.name} ${shortened(rawId)} not found then`));
  }
  const [data] = await withNames(services.readStore, resource.names, [found.data]);
  return { status: 200, body: Buffer.from(JSON.stringify({ ...found, data })) };
}
