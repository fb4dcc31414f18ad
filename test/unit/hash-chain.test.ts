import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { canonicalJson, hashEvent, type HashedFields } from '../../src/events/hash-chain';

/** The definition: SHA-256 of `canonicalize` over the whole envelope without position and hash. */
const reference = (event: HashedFields) =>
  createHash('sha256')
    .update(canonicalize(event) as string)
    .digest('hex');

const envelope = fc.record({
  event_id: fc.uuid(),
  stream: fc.string(),
  revision: fc.nat(),
  type: fc.string(),
  schema_version: fc.integer({ min: 1, max: 20 }),
  data: fc.jsonValue(),
  metadata: fc.record({
    actor: fc.string(),
    request_id: fc.string(),
    correlation_id: fc.string(),
    causation_id: fc.option(fc.string()),
    occurred_at: fc.string(),
    organisation: fc.option(fc.string(), { nil: undefined }),
  }),
  prev_hash: fc.stringMatching(/^[0-9a-f]{64}$/),
});

describe('event hash', () => {
  it('is SHA-256 over the RFC 8785 canonical JSON of the envelope, whatever its content', () => {
    fc.assert(
      fc.property(envelope, (event) => {
        const fields = event as HashedFields;
        expect(hashEvent(fields)).toBe(reference(fields));
        expect(hashEvent(fields, canonicalJson(fields.metadata))).toBe(reference(fields));
      }),
      { numRuns: 500 },
    );
  });
});
