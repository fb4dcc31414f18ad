import type { FeedResource, ModuleFeed } from '../../changes/change';
import { inScope } from '../../changes/feed';
import type { ModuleDefinition } from './module';

/** A module as its change feed knows it: its resources (each confined to the reader's scope, if it is) and the records its routes serve. */
export function moduleFeed(module: ModuleDefinition): ModuleFeed {
  const resources: FeedResource[] = module.resources.map((resource) => ({
    path: resource.path,
    collection: resource.collection.name,
    name: resource.name,
    present: (doc, viewer) => inScope(doc, resource.scopeField, viewer),
  }));
  return {
    module: module.id,
    projector: module.projector,
    resources: [...resources, ...(module.changes ?? [])],
  };
}
