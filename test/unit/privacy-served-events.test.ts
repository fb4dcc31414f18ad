import { randomBytes } from 'node:crypto';
import { checkDisclosure } from '../../src/privacy/disclosed-keys';
import { keyIdOf, seal } from '../../src/privacy/sealed-value';
import { openedPointers } from '../../src/privacy/served-events';

const key = randomBytes(32);
const subject = 'crm.contact-7';
const id = keyIdOf(key);
const sealed = (value: unknown, erasedAs: 'n' | 't' = 't') =>
  seal(value, subject, { id, key }, erasedAs, randomBytes(12));

const data = {
  title: 'not personal',
  contacts: [{ email: sealed('ada@example.com') }, { email: null }],
  'a/b~c': sealed('Ada', 'n'),
};

describe('openedPointers', () => {
  it('opens each sealed value by its RFC 6901 pointer, `~` and `/` escaped', () => {
    expect(openedPointers(data, new Map([[subject, new Map([[id, key]])]]))).toEqual({
      '/contacts/0/email': 'ada@example.com',
      '/a~1b~0c': 'Ada',
    });
  });

  it('reads a value erased once its key is gone, and is undefined for data with none', () => {
    expect(openedPointers(data, new Map())).toEqual({ '/contacts/0/email': '[erased]', '/a~1b~0c': null });
    expect(openedPointers({ title: 'x', n: [1, 2] }, new Map())).toBeUndefined();
  });
});

describe('checkDisclosure', () => {
  const event = { place: 'position 9', data };
  const disclosed = [{ subject, key_id: id, key: key.toString('base64') }];

  it('opens every sealed value with a key that hashes to its id', () => {
    expect(checkDisclosure([event], disclosed)).toEqual({
      values: [
        {
          place: 'position 9',
          pointer: '/contacts/0/email',
          subject,
          key_id: id,
          value: 'ada@example.com',
          erased: false,
        },
        { place: 'position 9', pointer: '/a~1b~0c', subject, key_id: id, value: 'Ada', erased: false },
      ],
    });
  });

  it('names the values whose key was erased', () => {
    const erased = [{ subject, key_id: id, erased: true as const }];
    expect(
      checkDisclosure([{ ...event, opened: { '/contacts/0/email': '[erased]', '/a~1b~0c': null } }], erased),
    ).toEqual({
      values: [
        { place: 'position 9', pointer: '/contacts/0/email', subject, key_id: id, erased: true },
        { place: 'position 9', pointer: '/a~1b~0c', subject, key_id: id, erased: true },
      ],
    });
  });

  it('refuses a key disclosed twice, one no value names, and an opened value that was not sealed', () => {
    expect(checkDisclosure([event], [...disclosed, ...disclosed])).toEqual({
      problem: `the key of ${subject} disclosed as ${id} is disclosed twice`,
    });
    const other = randomBytes(32);
    expect(
      checkDisclosure(
        [event],
        [...disclosed, { subject, key_id: keyIdOf(other), key: other.toString('base64') }],
      ),
    ).toEqual({
      problem: `the key of ${subject} disclosed as ${keyIdOf(other)} seals none of the values`,
    });
    const opened = { '/contacts/0/email': 'ada@example.com', '/a~1b~0c': 'Ada', '/title': 'not personal' };
    expect(checkDisclosure([{ ...event, opened }], disclosed)).toEqual({
      problem: '/title at position 9 names no sealed value',
    });
  });
});
