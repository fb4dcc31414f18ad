import { z } from 'zod';
import { evidenceBundle, EvidenceError } from '../../log-proofs/evidence';
import { consistency, inclusion } from '../../log-proofs/proofs';
import { DISCLOSABLE, type DisclosedKey } from '../../privacy/disclosed-keys';
import { servedEvents } from '../../privacy/served-events';
import type { SubjectKeyStore } from '../../privacy/subject-keys';
import type { TreeStore } from '../../log-proofs/tree-store';
import { ApiError } from '../kit/errors';
import type { Caller } from '../kit/module';
import { integerParameter } from '../kit/validation';
import { EventEnvelope, type AuditRoute, type AuditServices } from './services';

const InclusionQuery = z.strictObject({
  index: integerParameter({ min: 0 })
    .optional()
    .meta({ description: 'The leaf: the index-th event (0-based)' }),
  position: integerParameter({ min: 1 })
    .optional()
    .meta({ description: 'The leaf of the event at this position' }),
  tree_size: integerParameter({ min: 1 })
    .optional()
    .meta({ description: 'A signed tree size (default: the latest checkpoint\u2019s)' }),
});

const EvidenceQuery = z.strictObject({
  position: integerParameter({ min: 1 }).meta({ description: 'The event' }),
  tree_size: integerParameter({ min: 1 })
    .optional()
    .meta({ description: 'The size of a kept checkpoint (default: the latest)' }),
  disclose: z.string().optional().meta({
    description:
      '`personal`: add the keys of the subjects whose personal values the event holds (`disclosed`; or that they were erased) and the values opened beside its data (`suite-inclusion-evidence/2`)',
  }),
});

/** The key store to disclose keys from when `disclose` asks for them; a 422 naming any other value. */
export function keysToDisclose(
  disclose: string | undefined,
  services: AuditServices,
): SubjectKeyStore | undefined {
  if (disclose === undefined) return undefined;
  if (!DISCLOSABLE.includes(disclose)) {
    const msg = `${JSON.stringify(disclose)} cannot be disclosed; only ${DISCLOSABLE.join(', ')}`;
    const issue = { loc: ['query', 'disclose'], msg, type: 'value_error' };
    throw new ApiError('validation_error', `disclose: ${msg}`, { issues: [issue] });
  }
  return services.subjectKeys;
}

/** Logs who was given whose key, and for what evidence: never the key itself. */
export function logDisclosed(
  services: AuditServices,
  caller: Caller,
  disclosed: readonly DisclosedKey[] | undefined,
  evidence: Record<string, unknown>,
): void {
  for (const entry of disclosed ?? []) {
    if (!('key' in entry)) continue;
    services.logger.info(
      { principal: caller.principal?.id, subject: entry.subject, ...evidence },
      'personal data key disclosed',
    );
  }
}

const ConsistencyQuery = z.strictObject({
  from: integerParameter({ min: 1 }).meta({ description: 'The size of the older signed tree' }),
  to: integerParameter({ min: 1 })
    .optional()
    .meta({ description: 'The size of the newer one (default: the latest checkpoint\u2019s)' }),
});

const HashList = z.array(z.string().meta({ description: 'A SHA-256 hash, lowercase hex' }));

/** What every proof route may answer 503 for. */
const UNAVAILABLE = {
  503: {
    description: 'No auditor token is configured, or this process keeps no tree over the log (read-only)',
  },
};

const INVALID = { 422: { description: 'Invalid parameter' } };

/** The tree the process keeps; 503 where it keeps none. */
export function treeOf(services: AuditServices): TreeStore {
  if (!services.logTree) throw new ApiError('api_disabled', 'This process keeps no tree over the log');
  return services.logTree.store;
}

const proveInclusion: AuditRoute<z.infer<typeof InclusionQuery>> = {
  method: 'get',
  path: '/api/v1/proofs/inclusion',
  operation: 'proveInclusion',
  summary: 'Proof that an event is in a signed tree (RFC 9162 \u00a72.1.3): by leaf index or log position',
  role: 'auditor',
  query: InclusionQuery,
  responses: {
    200: {
      description: 'The proof',
      schema: z.object({
        index: z.number().int(),
        tree_size: z.number().int(),
        position: z.number().int(),
        leaf_hash: z.string(),
        hashes: HashList,
        event: EventEnvelope,
      }),
    },
    404: { description: 'No event at that position' },
    ...UNAVAILABLE,
    ...INVALID,
  },
  async handle({ query }, services) {
    const proof = await inclusion(treeOf(services), services.storedEvents, query);
    const [event] = proof.event ? await servedEvents([proof.event], services.subjectKeys) : [];
    return { status: 200, body: { ...proof, event } };
  },
};

const proveConsistency: AuditRoute<z.infer<typeof ConsistencyQuery>> = {
  method: 'get',
  path: '/api/v1/proofs/consistency',
  operation: 'proveConsistency',
  summary: 'Proof that a signed tree extends an older one (RFC 9162 \u00a72.1.4)',
  role: 'auditor',
  query: ConsistencyQuery,
  responses: {
    200: {
      description: 'The proof (empty when from = to)',
      schema: z.object({ from: z.number().int(), to: z.number().int(), hashes: HashList }),
    },
    ...UNAVAILABLE,
    ...INVALID,
  },
  async handle({ query }, services) {
    return { status: 200, body: await consistency(treeOf(services), query) };
  },
};

// The event as stored (its personal data sealed), which its hash covers: the bundle checks offline.
const getEvidence: AuditRoute<z.infer<typeof EvidenceQuery>> = {
  method: 'get',
  path: '/api/v1/evidence',
  operation: 'getEvidence',
  summary:
    'The evidence that an event is in the log, as `suite audit prove` writes it: the event as stored, its inclusion proof and the signed checkpoint (`suite audit verify-bundle` checks it offline)',
  role: 'auditor',
  query: EvidenceQuery,
  responses: {
    200: {
      description:
        'The evidence bundle (`suite-inclusion-evidence/1`; `/2` with `disclose=personal`, its keys in `disclosed`)',
      schema: z.record(z.string(), z.unknown()),
    },
    404: { description: 'No such event in the tree, no such checkpoint kept, or the event came after it' },
    ...UNAVAILABLE,
    ...INVALID,
  },
  async handle({ query: { position, tree_size, disclose }, caller }, services) {
    const keys = keysToDisclose(disclose, services);
    try {
      const bundle = await evidenceBundle(treeOf(services), services.storedEvents, position, tree_size, keys);
      logDisclosed(services, caller, bundle.disclosed, { position });
      return { status: 200, body: bundle };
    } catch (error) {
      if (error instanceof EvidenceError) throw new ApiError('not_found', error.message);
      throw error;
    }
  },
};

/** The proofs against the signed checkpoints. */
export const proofRoutes = [proveInclusion, proveConsistency, getEvidence];
