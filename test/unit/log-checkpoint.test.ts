import { createHash } from 'node:crypto';
import { checkpointText, parseCheckpoint, timeExtension } from '../../src/log-proofs/checkpoint';
import { generateSigningKey, noteSigner, NoteError, openNote } from '../../src/log-proofs/note';

const ROOT = Buffer.from([...Array(32).keys()]);
const ROOT_BASE64 = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';

describe('checkpoints', () => {
  it('are three lines: the origin, the size in decimal, the root in base64, each ending in a newline', () => {
    const text = checkpointText({ origin: 'suite.local/log', size: 20_852_163, root: ROOT });
    expect(text).toBe(`suite.local/log\n20852163\n${ROOT_BASE64}\n`);
    expect(parseCheckpoint(text)).toEqual({ origin: 'suite.local/log', size: 20_852_163, root: ROOT });
  });

  it('of an empty tree have size 0 and the hash of nothing as root (RFC 9162)', () => {
    const empty = { origin: 'suite.local/log', size: 0, root: createHash('sha256').digest() };
    expect(checkpointText(empty)).toBe('suite.local/log\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n');
    expect(parseCheckpoint(checkpointText(empty))).toEqual(empty);
  });

  it('parse the example of the C2SP tlog-checkpoint spec', () => {
    const checkpoint = parseCheckpoint(
      'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n',
    );
    expect(checkpoint.origin).toBe('example.com/behind-the-sofa');
    expect(checkpoint.size).toBe(20_852_163);
    expect(checkpoint.root.toString('base64')).toBe('CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=');
  });

  it('carry extension lines after the root, the suite its signing time', () => {
    const checkpoint = {
      origin: 'suite.local/log',
      size: 5,
      root: ROOT,
      extensions: [timeExtension('2026-11-21T09:30:00Z'), 'example.com/other opaque'],
    };
    const text = checkpointText(checkpoint);
    expect(text).toBe(
      `suite.local/log\n5\n${ROOT_BASE64}\nsuite.local/log time 2026-11-21T09:30:00Z\nexample.com/other opaque\n`,
    );
    expect(parseCheckpoint(text)).toEqual(checkpoint);
  });

  it('refuse an empty extension line, a missing line, a size with leading zeros or a sign, and a root that is not 32 bytes', () => {
    for (const bad of [
      `suite.local/log\n5\n${ROOT_BASE64}\n\n`,
      `suite.local/log\n5\n${ROOT_BASE64}\nextension\n\n`,
      `suite.local/log\n5\n${ROOT_BASE64}`,
      `suite.local/log\n5\n`,
      `\n5\n${ROOT_BASE64}\n`,
      `suite.local/log\n05\n${ROOT_BASE64}\n`,
      `suite.local/log\n-5\n${ROOT_BASE64}\n`,
      `suite.local/log\n5.0\n${ROOT_BASE64}\n`,
      `suite.local/log\n99999999999999999999\n${ROOT_BASE64}\n`,
      `suite.local/log\n5\n${ROOT.subarray(1).toString('base64')}\n`,
      `suite.local/log\n5\n${ROOT.toString('hex')}\n`,
      `suite.local/log\n5\n${ROOT_BASE64.slice(0, -1)}\n`,
    ]) {
      expect(() => parseCheckpoint(bad)).toThrow(NoteError);
    }
  });

  it('are never written wrong: a root of another length, a fractional size or an origin of two lines', () => {
    expect(() => checkpointText({ origin: 'suite.local/log', size: 5, root: ROOT.subarray(1) })).toThrow(
      NoteError,
    );
    expect(() => checkpointText({ origin: 'suite.local/log', size: 1.5, root: ROOT })).toThrow(NoteError);
    expect(() => checkpointText({ origin: 'suite\nlog', size: 5, root: ROOT })).toThrow(NoteError);
  });

  it('signed, open with the verifier key to the same checkpoint', () => {
    const signer = noteSigner(generateSigningKey('suite.local/log'));
    const checkpoint = { origin: 'suite.local/log', size: 42, root: ROOT };
    const note = signer.sign(checkpointText(checkpoint));
    expect(note).toMatch(/^suite\.local\/log\n42\n\S+\n\n\u2014 suite\.local\/log \S+\n$/);
    expect(parseCheckpoint(openNote(note, signer.verifierKey))).toEqual(checkpoint);
    expect(() => openNote(note.replace('\n42\n', '\n43\n'), signer.verifierKey)).toThrow(/invalid signature/);
    const other = noteSigner(generateSigningKey('suite.local/log'));
    expect(() => openNote(note, other.verifierKey)).toThrow(/no signature by/);
  });
});
