import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { checkpointText } from '../../src/log-proofs/checkpoint';
import { checkCosignature, cosigner, generateCosignerKey } from '../../src/log-proofs/cosignature';
import { generateSigningKey, noteSigner } from '../../src/log-proofs/note';
import { addCheckpointBody } from '../../src/log-proofs/witnessing';
import { addCheckpoint, type Witness } from '../../src/witness/add-checkpoint';
import { fileWitnessState } from '../../src/witness/witness-state';
import * as rfc from '../support/rfc9162';
import { tempDir } from '../support/temp-dir';

const ORIGIN = 'suite.test/log';
const log = noteSigner(generateSigningKey(ORIGIN));
const witnessKey = cosigner(generateCosignerKey('witness.test/w'));
const NOW = new Date('2026-11-21T09:30:00Z');

let dir: { dir: string; cleanup: () => void };
let witness: Witness;
beforeEach(() => {
  dir = tempDir();
  witness = {
    logs: new Map([[ORIGIN, [log.verifierKey]]]),
    cosigner: witnessKey,
    state: fileWitnessState(dir.dir),
    now: () => NOW,
  };
});
afterEach(() => dir.cleanup());

const leaves = (count: number, tag = 'a') =>
  Array.from({ length: count }, (_, n) => Buffer.from(`${tag}${n}`));
const signed = (inputs: Buffer[], signer = log) =>
  signer.sign(checkpointText({ origin: ORIGIN, size: inputs.length, root: rfc.mth(inputs) }));
const submit = (old: number, proof: Buffer[], note: string) =>
  addCheckpoint(witness, addCheckpointBody(old, proof, note));
const refusals = () => readdirSync(path.join(dir.dir, 'refused'));

describe('a witness (C2SP tlog-witness add-checkpoint)', () => {
  it('cosigns the first checkpoint of a log it trusts, then a larger one proven consistent', () => {
    const first = signed(leaves(3));
    const answer = submit(0, [], first);
    expect(answer).toMatchObject({ status: 200, mediaType: 'text/plain; charset=utf-8' });
    expect(answer.text).toMatch(/^\u2014 witness\.test\/w \S+\n$/);
    expect(checkCosignature(first + answer.text, witnessKey.verifierKey)).toEqual({
      status: 'valid',
      timestamp: NOW.getTime() / 1000,
    });
    const second = signed(leaves(7));
    expect(submit(3, rfc.proof(3, leaves(7)), second).status).toBe(200);
    expect(witness.state.latest(ORIGIN)).toBe(second);
  });

  it('answers 409 with the size it holds, as text/x.tlog.size, when the old size is not it', () => {
    submit(0, [], signed(leaves(3)));
    expect(submit(0, [], signed(leaves(5)))).toEqual({
      status: 409,
      mediaType: 'text/x.tlog.size',
      text: '3\n',
    });
    expect(submit(4, rfc.proof(4, leaves(5)), signed(leaves(5)))).toMatchObject({ status: 409, text: '3\n' });
  });

  it('refuses a fork and keeps both checkpoints: 422 for a proof that fails, 409 for another root at its size', () => {
    const honest = signed(leaves(3));
    submit(0, [], honest);
    const rewritten = leaves(5, 'b');
    expect(submit(3, rfc.proof(3, rewritten), signed(rewritten)).status).toBe(422);
    expect(submit(3, [], signed(leaves(3, 'b'))).status).toBe(409);
    expect(refusals()).toHaveLength(2);
    expect(witness.state.latest(ORIGIN)).toBe(honest);
  });

  it('answers 404 for a log it does not know, 403 without a signature of its key, 400 for a malformed request', () => {
    const stranger = noteSigner(generateSigningKey(ORIGIN));
    const other = noteSigner(generateSigningKey('other.test/log'));
    expect(
      submit(
        0,
        [],
        other.sign(checkpointText({ origin: 'other.test/log', size: 1, root: rfc.mth(leaves(1)) })),
      ).status,
    ).toBe(404);
    expect(submit(0, [], signed(leaves(2), stranger)).status).toBe(403);
    for (const body of [
      '',
      `old 01\n\n${signed(leaves(2))}`,
      `old 3\n\n${signed(leaves(2))}`,
      `old 0\nAAAA\n\n${signed(leaves(2))}`,
      `old 0\n${signed(leaves(2))}`,
      `old 0\n\nnot a checkpoint\n\n\u2014 x AAAA\n`,
      addCheckpointBody(
        0,
        leaves(1).map(() => rfc.mth(leaves(1))),
        signed(leaves(2)),
      ),
      addCheckpointBody(
        0,
        Array.from({ length: 64 }, () => rfc.mth(leaves(1))),
        signed(leaves(2)),
      ),
    ]) {
      expect({ body, status: addCheckpoint(witness, body).status }).toEqual({ body, status: 400 });
    }
    expect(refusals()).toEqual([]);
  });

  it('never cosigns a checkpoint inconsistent with one it cosigned, whatever the log sends', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ size: fc.integer({ min: 1, max: 40 }), fork: fc.boolean() }), {
          minLength: 1,
          maxLength: 6,
        }),
        (steps) => {
          dir.cleanup();
          dir = tempDir();
          witness = { ...witness, state: fileWitnessState(dir.dir) };
          let held: Buffer[] = [];
          for (const { size, fork } of steps) {
            const next = fork
              ? leaves(size, `f${size}`)
              : [...held, ...leaves(Math.max(0, size - held.length), `g${held.length}`)].slice(
                  0,
                  Math.max(size, held.length),
                );
            const old = held.length;
            const proof = old > 0 && old < next.length ? rfc.proof(old, next) : [];
            const answer = submit(old, proof, signed(next));
            const consistent =
              old <= next.length && next.slice(0, old).every((leaf, at) => leaf.equals(held[at] as Buffer));
            expect(answer.status === 200).toBe(consistent);
            if (answer.status === 200) held = next;
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
