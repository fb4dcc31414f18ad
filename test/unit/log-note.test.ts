import { createHash } from 'node:crypto';
import {
  generateSigningKey,
  isKeyName,
  keyId,
  noteSigner,
  NoteError,
  openNote,
} from '../../src/log-proofs/note';

// RFC 8032 §7.1, TEST 1: an Ed25519 seed and its public key.
const SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const PUBLIC_KEY = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
// That key named suite.local/log; the key id and the base64 texts were computed apart (Python's hashlib
// and base64) from the definitions: SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key)[:4], base64(0x01 ‖ key).
const SIGNING_KEY = 'PRIVATE+KEY+suite.local/log+b1c8deb6+AZ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g';
const VERIFIER_KEY = 'suite.local/log+b1c8deb6+AddamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea';

const TEXT = 'suite.local/log\n5\nAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n';

describe('note keys', () => {
  it('computes the key id as the first four bytes of SHA-256(name, newline, 0x01, public key), in hex', () => {
    const publicKey = Buffer.from(PUBLIC_KEY, 'hex');
    const input = Buffer.concat([Buffer.from('suite.local/log'), Buffer.from([0x0a, 0x01]), publicKey]);
    expect(createHash('sha256').update(input).digest('hex').slice(0, 8)).toBe('b1c8deb6');
    expect(keyId('suite.local/log', publicKey)).toBe('b1c8deb6');
  });

  it('derives the verifier key of a signing key: same name and key id, 0x01 and the public key', () => {
    const signer = noteSigner(SIGNING_KEY);
    expect(signer.name).toBe('suite.local/log');
    expect(signer.verifierKey).toBe(VERIFIER_KEY);
    const encoded = VERIFIER_KEY.slice('suite.local/log+b1c8deb6+'.length);
    expect(Buffer.from(encoded, 'base64').toString('hex')).toBe(`01${PUBLIC_KEY}`);
    const seed = SIGNING_KEY.slice('PRIVATE+KEY+suite.local/log+b1c8deb6+'.length);
    expect(Buffer.from(seed, 'base64').toString('hex')).toBe(`01${SEED}`);
  });

  it('generates keys that round-trip: PRIVATE+KEY+<name>+<8 hex>+<base64 of 0x01 and 32 bytes>', () => {
    const key = generateSigningKey('example.com/log');
    expect(key).toMatch(/^PRIVATE\+KEY\+example\.com\/log\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}$/);
    const signer = noteSigner(key);
    expect(signer.verifierKey).toMatch(/^example\.com\/log\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}$/);
    expect(signer.verifierKey.split('+')[1]).toBe(key.split('+')[3]);
    expect(generateSigningKey('example.com/log')).not.toBe(key);
  });

  it('refuses a signing key that is mangled, of another algorithm or whose key id does not match, without repeating it', () => {
    const [, , name, id, encoded = ''] = SIGNING_KEY.split('+');
    const otherAlgorithm = Buffer.from(encoded, 'base64');
    otherAlgorithm[0] = 0x02;
    for (const bad of [
      SIGNING_KEY.slice('PRIVATE+KEY+'.length),
      SIGNING_KEY.slice(0, -4),
      `${SIGNING_KEY}AAAA`,
      SIGNING_KEY.replace('b1c8deb6', 'b1c8deb7'),
      SIGNING_KEY.replace('suite.local/log', 'suite.local/other'),
      `PRIVATE+KEY+${name}+${id}+${otherAlgorithm.toString('base64')}`,
      `PRIVATE+KEY+suite local+${id}+${encoded}`,
      ` ${SIGNING_KEY}`,
    ]) {
      expect(() => noteSigner(bad)).toThrow(NoteError);
      expect(() => noteSigner(bad)).not.toThrow(encoded);
    }
  });

  it('takes as a key name any non-empty text without spaces, plus signs or control characters', () => {
    expect(isKeyName('suite.local/log')).toBe(true);
    expect(isKeyName('PeterNeumann')).toBe(true);
    for (const bad of ['', 'a b', 'a+b', 'a\tb', 'a\u00a0b', 'a\u2003b', 'a\u0001b', 'a\ud800b']) {
      expect(isKeyName(bad)).toBe(false);
    }
    expect(() => generateSigningKey('suite local')).toThrow(NoteError);
  });
});

describe('signed notes', () => {
  const signer = noteSigner(SIGNING_KEY);
  const signed = signer.sign(TEXT);

  it('is the text, a blank line and one line "— <name> base64(key id ‖ 64-byte signature)"', () => {
    const [text, line] = signed.split('\n\n');
    expect(`${text}\n`).toBe(TEXT);
    expect(signed.endsWith('\n')).toBe(true);
    const match = /^\u2014 suite\.local\/log ([A-Za-z0-9+/]+=*)\n$/.exec(line ?? '');
    const signature = Buffer.from(match?.[1] ?? '', 'base64');
    expect(signature).toHaveLength(68);
    expect(signature.subarray(0, 4).toString('hex')).toBe('b1c8deb6');
  });

  it('opens with the verifier key, giving back the text', () => {
    expect(openNote(signed, VERIFIER_KEY)).toBe(TEXT);
  });

  it('refuses a changed text', () => {
    expect(() => openNote(signed.replace('\n5\n', '\n6\n'), VERIFIER_KEY)).toThrow(
      'invalid signature by suite.local/log+b1c8deb6',
    );
  });

  it("refuses another key's signature, also under the same name", () => {
    const other = noteSigner(generateSigningKey('suite.local/log'));
    expect(() => openNote(other.sign(TEXT), VERIFIER_KEY)).toThrow(
      'no signature by suite.local/log+b1c8deb6',
    );
  });

  it('ignores a signature with a wrong key id or another name, and so refuses a note with no other', () => {
    const [text, line = ''] = signed.split('\n\n');
    const signature = Buffer.from(line.split(' ')[2] ?? '', 'base64');
    signature[0] = signature[0]! ^ 1;
    const wrongId = `${text}\n\n\u2014 suite.local/log ${signature.toString('base64')}\n`;
    expect(() => openNote(wrongId, VERIFIER_KEY)).toThrow(/no signature by/);
    expect(() =>
      openNote(signed.replace('\u2014 suite.local/log', '\u2014 other.example/log'), VERIFIER_KEY),
    ).toThrow(/no signature by/);
  });

  it('opens a note its key signed among signatures of unknown keys, but not one where a signature of its key fails', () => {
    const other = noteSigner(generateSigningKey('witness.example/w1')).sign(TEXT);
    const otherLine = other.slice(TEXT.length + 1);
    expect(openNote(`${signed}${otherLine}`, VERIFIER_KEY)).toBe(TEXT);
    const ownLine = signed.slice(TEXT.length + 1);
    const forged = ownLine.replace(/.{4}=\n$/, 'AAAA=\n');
    expect(() => openNote(`${signed}${forged}`, VERIFIER_KEY)).toThrow(/invalid signature/);
  });

  it('refuses malformed notes: no signature line, no blank line, a control character, a bad signature line', () => {
    for (const bad of [
      `${TEXT}\n`,
      TEXT,
      signed.slice(0, -1),
      signed.replace('\n5\n', '\n5\r\n'),
      signed.replace('\u2014 ', '- '),
      signed.replace(/=\n$/, '!\n'),
      `${TEXT}\n\u2014 suite.local/log AAAA\n`,
    ]) {
      expect(() => openNote(bad, VERIFIER_KEY)).toThrow(/malformed note/);
    }
  });

  it('refuses a verifier key that is malformed or whose key id does not match its key', () => {
    expect(() => openNote(signed, VERIFIER_KEY.replace('b1c8deb6', 'b1c8deb7'))).toThrow(
      /not a verifier key/,
    );
    expect(() => openNote(signed, VERIFIER_KEY.replace('suite.local/log', 'x'))).toThrow(
      /not a verifier key/,
    );
    expect(() => openNote(signed, SIGNING_KEY)).toThrow(/not a verifier key/);
  });

  it('signs only a text that ends in a newline and holds no other control character', () => {
    expect(() => signer.sign('no newline')).toThrow(NoteError);
    expect(() => signer.sign('a\rb\n')).toThrow(NoteError);
    const withEmptyLines = 'first\n\nlast\n\n';
    expect(openNote(signer.sign(withEmptyLines), VERIFIER_KEY)).toBe(withEmptyLines);
  });
});

describe('published examples', () => {
  // golang.org/x/mod/sumdb/note, note.go's package documentation (and note_test.go): a key pair and a
  // note it signed. Ed25519 is deterministic, so signing the text again gives the same line.
  const GO_SIGNING_KEY = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
  const GO_VERIFIER_KEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
  const GO_NOTE =
    'If you think cryptography is the answer to your problem,\n' +
    "then you don't know what your problem is.\n" +
    '\n' +
    '\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';
  const GO_TEXT = GO_NOTE.slice(0, GO_NOTE.indexOf('\n\n') + 1);

  it("reproduces Go's sumdb/note example: its verifier key and its signed note, byte for byte", () => {
    const signer = noteSigner(GO_SIGNING_KEY);
    expect(signer.verifierKey).toBe(GO_VERIFIER_KEY);
    expect(signer.sign(GO_TEXT)).toBe(GO_NOTE);
    expect(openNote(GO_NOTE, GO_VERIFIER_KEY)).toBe(GO_TEXT);
  });

  it('opens the example of the C2SP signed-note spec with its verifier key', () => {
    // c2sp.org/signed-note, "Verifier keys: Example".
    const vkey = 'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k';
    const note =
      'This is an example message.\n\n' +
      '\u2014 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n';
    expect(openNote(note, vkey)).toBe('This is an example message.\n');
    expect(() => openNote(note.replace('example message', 'exemplary message'), vkey)).toThrow(
      /invalid signature/,
    );
  });
});
