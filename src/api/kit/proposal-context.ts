import { z } from 'zod';
import { PROPOSALS_COLLECTION, presentProposal, type Proposal, type ProposalRecord } from '../../approvals';
import type { Document, ReadStore } from '../../projections/read-store';
import { actorName } from './actor-name';
import type { ModuleDefinition, ResourceDefinition } from './module';
import { ProposalSchema } from './proposal-schema';
import { withNames } from './record-names';

/**
 * A proposal with what an approver decides on: who proposed it, by name; the record it changes, with
 * a link; the change as the record's values now against the proposed ones; how long it has waited;
 * and the other proposals still pending on the same record, which approving it may contradict.
 */

const FieldPreview = z
  .object({ field: z.string(), before: z.unknown(), after: z.unknown() })
  .meta({ id: 'FieldPreview' });

export const ProposalInContext = ProposalSchema.extend({
  proposer_name: z.string().meta({
    description: 'Who proposed it: the credential\u2019s or user\u2019s name, never a key id',
  }),
  target: z
    .object({
      resource: z.string().meta({ description: 'The resource path: `leave`' }),
      id: z.union([z.number().int(), z.string()]),
      href: z.string().meta({ description: 'The record\u2019s read: `/api/v1/leave/404`' }),
      record: z
        .record(z.string(), z.unknown())
        .nullable()
        .meta({ description: 'The record as it stands now (null: no longer there)' }),
    })
    .nullable()
    .meta({ description: 'The record the write changes; null for a write that creates one' }),
  preview: z.array(FieldPreview).meta({
    description:
      'Each field the payload sets, the record\u2019s value now (null when there is no record) and the proposed one',
  }),
  age_seconds: z.number().int().meta({ description: 'Seconds since it was proposed' }),
  conflicts: z.array(z.string()).meta({
    description: 'The ids of the other proposals still pending on the same record',
  }),
}).meta({ id: 'ProposalInContext' });

/** The resource and id a write's path names (`/api/v1/leave/404/...`), if a resource of the module. */
function targetOf(module: ModuleDefinition, path: string) {
  const [segment, rawId] = path.replace(/^\/api\/v1\//, '').split('/');
  const resource = module.resources.find((candidate) => candidate.path === segment);
  if (!resource || !rawId) return null;
  const id = resource.collection.idKind === 'integer' ? Number(rawId) : decodeURIComponent(rawId);
  return Number.isNaN(id) ? null : { resource, id };
}

async function currentRecord(readStore: ReadStore, resource: ResourceDefinition, id: string | number) {
  const stored = await readStore.get(resource.collection.name, id);
  if (stored === null) return null;
  const [named] = await withNames(readStore, resource.names, [JSON.parse(stored) as Document]);
  return named ?? null;
}

/** The ids of the pending proposals of the module about the record `target` (`esm requests/42`). */
async function pendingOn(readStore: ReadStore, module: string, target: string): Promise<string[]> {
  const filters = [
    { field: 'module', op: 'eq' as const, value: module },
    { field: 'target', op: 'eq' as const, value: target },
    { field: 'status', op: 'eq' as const, value: 'pending' },
  ];
  const page = await readStore.find(PROPOSALS_COLLECTION, { filters, limit: 200, offset: 0 });
  return page.items.map((item) => (JSON.parse(item) as { id: string }).id);
}

/** The proposals as answered, each with its context (see `ProposalInContext`). */
export async function proposalsInContext(
  module: ModuleDefinition,
  readStore: ReadStore,
  records: readonly ProposalRecord[],
  now: Date,
) {
  const pendingByTarget = new Map<string, Promise<string[]>>();
  return Promise.all(
    records.map(async (record) => {
      const proposal: Proposal = presentProposal(record, now);
      const found = targetOf(module, record.path);
      const current = found ? await currentRecord(readStore, found.resource, found.id) : null;
      const payload =
        record.payload && typeof record.payload === 'object' && !Array.isArray(record.payload)
          ? (record.payload as Record<string, unknown>)
          : {};
      const preview = Object.entries(payload).map(([field, after]) => ({
        field,
        before: current?.[field] ?? null,
        after,
      }));
      let conflicts: string[] = [];
      if (record.target) {
        const target = record.target;
        if (!pendingByTarget.has(target))
          pendingByTarget.set(target, pendingOn(readStore, module.id, target));
        conflicts = ((await pendingByTarget.get(target)) ?? []).filter((id) => id !== record.id);
      }
      return {
        ...proposal,
        proposer_name: actorName(record.caller.actor, record.caller.actorName),
        target: found && {
          resource: found.resource.path,
          id: found.id,
          href: `/api/v1/${found.resource.path}/${encodeURIComponent(String(found.id))}`,
          record: current,
        },
        preview,
        age_seconds: Math.max(0, Math.floor((now.getTime() - Date.parse(record.created_at)) / 1000)),
        conflicts,
      };
    }),
  );
}
