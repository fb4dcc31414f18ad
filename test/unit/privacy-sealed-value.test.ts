import { randomBytes } from 'node:crypto';
import {
  ERASED_TEXT,
  erasedValue,
  IV_SIZE,
  KEY_BYTES,
  open,
  seal,
  sealedHeader,
  type SubjectKey,
} from '../../src/privacy/sealed-value';

const SUBJECT = 'hrm.employee-42';
const key: SubjectKey = { id: 'a1b2c3d4e5f60718', key: randomBytes(KEY_BYTES) };
const otherKey: SubjectKey = { id: 'ffeeddccbbaa9988', key: randomBytes(KEY_BYTES) };

const sealed = (value: unknown, erasedAs: 'n' | 't' = 't') =>
  seal(value, SUBJECT, key, erasedAs, randomBytes(IV_SIZE));

/** The sealed value opened with the key it was sealed under. */
const roundTrip = (value: unknown) => open(sealed(value), key.key);

describe('a sealed value', () => {
  it.each([
    ['a string', 'Ada Lovelace'],
    ['an empty string', ''],
    ['a number', 42],
    ['a negative fraction', -3.25],
    ['zero', 0],
    ['a boolean', false],
    ['an object', { street: 'Main Street 1', city: 'London', postal_code: 'N1 9GU' }],
    ['an array', ['ada@example.com', 'ada@home.example', 7, null]],
    ['nested structures', { people: [{ email: 'a@example.com', tags: ['x', { y: [1, 2] }] }] }],
    ['unicode', 'Zoë Ångström — 日本語 🙂 \u0000 "quoted" :colons:'],
  ])('opens to %s exactly as it was sealed', (_, value) => {
    expect(roundTrip(value)).toEqual(value);
  });

  it('is a pd1 string naming its erased-as, subject and key id, and never holds the plaintext', () => {
    const plaintext = 'ada.lovelace@example.com';
    const text = sealed(plaintext, 'n');
    expect(text).toMatch(/^pd1:n:hrm\.employee-42:a1b2c3d4e5f60718:[A-Za-z0-9_-]+$/);
    expect(text).not.toContain(plaintext);
    expect(text).not.toContain('ada');
    expect(text).not.toContain(Buffer.from(JSON.stringify(plaintext)).toString('base64url'));
    expect(sealedHeader(text)).toEqual({ subject: SUBJECT, keyId: key.id, erasedAs: 'n' });
  });

  it('carries the IV, ciphertext and 16-byte tag: 12 + length of the JSON + 16 bytes', () => {
    const text = sealed('abc');
    const payload = Buffer.from(text.slice(text.lastIndexOf(':') + 1), 'base64url');
    expect(payload.length).toBe(IV_SIZE + JSON.stringify('abc').length + 16);
  });

  it('differs on every sealing of one value (a fresh IV each time)', () => {
    const seals = new Set(Array.from({ length: 20 }, () => sealed('same value')));
    expect(seals.size).toBe(20);
    for (const text of seals) expect(open(text, key.key)).toBe('same value');
  });

  it('is the same for the same IV (sealing is deterministic given its inputs)', () => {
    const iv = randomBytes(IV_SIZE);
    expect(seal('x', SUBJECT, key, 't', iv)).toBe(seal('x', SUBJECT, key, 't', iv));
  });

  describe('cannot be opened', () => {
    const text = sealed('secret', 't');

    it('with another key', () => {
      expect(() => open(text, otherKey.key)).toThrow();
      expect(() => open(text, Buffer.alloc(KEY_BYTES))).toThrow();
    });

    it.each([
      ['another subject', `:${SUBJECT}:`, ':hrm.employee-43:'],
      ['another key id', `:${key.id}:`, `:${otherKey.id}:`],
      ['another erased-as', 'pd1:t:', 'pd1:n:'],
    ])(
      'when the header written in the string was changed to name %s (it is authenticated)',
      (_, from, to) => {
        const changed = text.replace(from, to);
        expect(changed).not.toBe(text);
        expect(sealedHeader(changed)).toBeDefined();
        expect(() => open(changed, key.key)).toThrow();
      },
    );

    it('when any byte of its payload was flipped (IV, ciphertext or tag)', () => {
      const at = text.lastIndexOf(':') + 1;
      const payload = Buffer.from(text.slice(at), 'base64url');
      for (let index = 0; index < payload.length; index++) {
        const flipped = Buffer.from(payload);
        flipped[index] = (flipped[index] as number) ^ 0x01;
        const tampered = `${text.slice(0, at)}${flipped.toString('base64url')}`;
        expect(() => open(tampered, key.key)).toThrow();
      }
    });

    it('when its payload was cut short', () => {
      const at = text.lastIndexOf(':') + 1;
      const payload = Buffer.from(text.slice(at), 'base64url');
      const cut = `${text.slice(0, at)}${payload.subarray(0, payload.length - 1).toString('base64url')}`;
      expect(() => open(cut, key.key)).toThrow();
    });
  });
});

describe('sealedHeader', () => {
  it('reads the header of a sealed value', () => {
    expect(sealedHeader(sealed({ a: 1 }, 't'))).toEqual({ subject: SUBJECT, keyId: key.id, erasedAs: 't' });
  });

  it.each([
    ['a plain string', 'Ada Lovelace'],
    ['an empty string', ''],
    ["'pd1:' alone", 'pd1:'],
    ['pd1 without the colon', 'pd1'],
    ['a header without a payload', 'pd1:t:hrm.employee-42:a1b2c3d4e5f60718'],
    ['an unknown erased-as letter', 'pd1:x:hrm.employee-42:a1b2c3d4e5f60718:AAAA'],
    ['an upper-case erased-as letter', 'pd1:N:hrm.employee-42:a1b2c3d4e5f60718:AAAA'],
    ['an empty subject', 'pd1:t::a1b2c3d4e5f60718:AAAA'],
    ['an empty key id', 'pd1:t:hrm.employee-42::AAAA'],
    ['another version prefix', 'pd2:t:hrm.employee-42:a1b2c3d4e5f60718:AAAA'],
    ['the prefix in the middle', 'x pd1:t:hrm.employee-42:a1b2c3d4e5f60718:AAAA'],
  ])('is undefined for %s', (_, value) => {
    expect(sealedHeader(value)).toBeUndefined();
  });

  it.each([
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['an object', { subject: SUBJECT }],
    ['an array holding a sealed value', [sealed('x')]],
  ])('is undefined for %s', (_, value) => {
    expect(sealedHeader(value)).toBeUndefined();
  });
});

describe('erasedValue', () => {
  it('is null for a value erased as n (its field may be null)', () => {
    expect(erasedValue({ subject: SUBJECT, keyId: key.id, erasedAs: 'n' })).toBeNull();
  });

  it('is the text "[erased]" for a value erased as t', () => {
    expect(ERASED_TEXT).toBe('[erased]');
    expect(erasedValue({ subject: SUBJECT, keyId: key.id, erasedAs: 't' })).toBe('[erased]');
  });

  it('follows the erased-as of the header a sealed string carries', () => {
    expect(erasedValue(sealedHeader(sealed('x', 'n'))!)).toBeNull();
    expect(erasedValue(sealedHeader(sealed('x', 't'))!)).toBe('[erased]');
  });
});
