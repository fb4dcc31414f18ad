import { createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import {
  checkCosignature,
  cosigner,
  generateCosignerKey,
  isCosignerKey,
  quorumProblem,
} from '../../src/log-proofs/cosignature';
import { generateSigningKey, noteSigner } from '../../src/log-proofs/note';

// RFC 8032 §7.1, TEST 1, as a witness's key named witness.test/w: the key id and texts follow from the
// definitions of C2SP tlog-cosignature (type 0x04), recomputed below with node:crypto alone.
const SEED = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
const PUBLIC_KEY = Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex');
const NAME = 'witness.test/w';
const ID = createHash('sha256')
  .update(Buffer.concat([Buffer.from(`${NAME}\n`), Buffer.of(0x04), PUBLIC_KEY]))
  .digest()
  .subarray(0, 4);
const SIGNING_KEY = `PRIVATE+KEY+${NAME}+${ID.toString('hex')}+${Buffer.concat([Buffer.of(4), SEED]).toString('base64')}`;
const VERIFIER_KEY = `${NAME}+${ID.toString('hex')}+${Buffer.concat([Buffer.of(4), PUBLIC_KEY]).toString('base64')}`;

const log = noteSigner(generateSigningKey('suite.test/log'));
const TEXT =
  'suite.test/log\n5\nAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\nsuite.local/log time 2026-11-21T09:30:00Z\n';
const NOTE = log.sign(TEXT);

describe('cosignatures (C2SP tlog-cosignature, cosignature/v1)', () => {
  it('take keys of type 0x04, their id SHA-256(name, newline, 0x04, public key)[:4]', () => {
    const witness = cosigner(SIGNING_KEY);
    expect(witness.verifierKey).toBe(VERIFIER_KEY);
    expect(isCosignerKey(VERIFIER_KEY)).toBe(true);
    expect(isCosignerKey(log.verifierKey)).toBe(false);
    expect(() => cosigner(generateSigningKey(NAME))).toThrow();
  });

  it('are "— name base64(key id ‖ u64 timestamp ‖ Ed25519 over cosignature/v1, time, and the note text)"', () => {
    const line = cosigner(SIGNING_KEY).cosign(TEXT, 1_679_315_147);
    const [, name = '', encoded = ''] = /^\u2014 (\S+) (\S+)\n$/.exec(line) ?? [];
    expect(name).toBe(NAME);
    const bytes = Buffer.from(encoded, 'base64');
    expect(bytes.subarray(0, 4)).toEqual(ID);
    expect(bytes.readBigUInt64BE(4)).toBe(1_679_315_147n);
    const message = Buffer.from(`cosignature/v1\ntime 1679315147\n${TEXT}`);
    const publicKey = createPublicKey(
      createPrivateKey({
        key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), SEED]),
        format: 'der',
        type: 'pkcs8',
      }),
    );
    expect(verify(null, message, publicKey, bytes.subarray(12))).toBe(true);
    // Ed25519 is deterministic: the same signature as node:crypto makes of the message.
    expect(bytes.subarray(12)).toEqual(
      sign(
        null,
        message,
        createPrivateKey({
          key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), SEED]),
          format: 'der',
          type: 'pkcs8',
        }),
      ),
    );
  });

  it('check valid, absent, or invalid (a line of the key whose signature fails, or of another text)', () => {
    const witness = cosigner(SIGNING_KEY);
    const line = witness.cosign(TEXT, 1_679_315_147);
    expect(checkCosignature(NOTE + line, VERIFIER_KEY)).toEqual({
      status: 'valid',
      timestamp: 1_679_315_147,
    });
    expect(checkCosignature(NOTE, VERIFIER_KEY)).toEqual({ status: 'absent' });
    const other = log.sign(TEXT.replace('\n5\n', '\n6\n'));
    expect(checkCosignature(other + line, VERIFIER_KEY)).toEqual({ status: 'invalid' });
    const stranger = cosigner(generateCosignerKey(NAME));
    expect(checkCosignature(NOTE + stranger.cosign(TEXT, 1), VERIFIER_KEY)).toEqual({ status: 'absent' });
  });

  it('count towards a quorum only when valid, each key once', () => {
    const one = cosigner(SIGNING_KEY);
    const two = cosigner(generateCosignerKey('witness.test/two'));
    const keys = [one.verifierKey, two.verifierKey];
    const cosigned = NOTE + one.cosign(TEXT, 1) + one.cosign(TEXT, 2);
    expect(quorumProblem(cosigned, keys, 1)).toBeUndefined();
    expect(quorumProblem(cosigned, keys, 2)).toBe(
      '1 valid cosignature(s) of 2 witness(es), 2 required (witness.test/w valid, witness.test/two absent)',
    );
    expect(quorumProblem(cosigned + two.cosign(TEXT, 3), keys, 2)).toBeUndefined();
  });
});
