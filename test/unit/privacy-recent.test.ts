import { recent } from '../../src/privacy/recent';

describe('recent: what was remembered lately, in two generations', () => {
  it('finds what was remembered in this generation and the one before, and forgets the one before that', () => {
    const remembered = recent<string, number>({ size: 2 });
    remembered.set('a', 1);
    remembered.set('b', 2);
    remembered.set('c', 3); // the first generation is full: a new one starts
    expect([remembered.get('a'), remembered.get('b'), remembered.get('c')]).toEqual([1, 2, 3]);
    remembered.set('d', 4);
    remembered.set('e', 5); // a third generation: the first is dropped
    expect([remembered.has('a'), remembered.has('b'), remembered.get('c'), remembered.get('e')]).toEqual([
      false,
      false,
      3,
      5,
    ]);
  });

  it('starts a new generation once the current one is older than its time', () => {
    let now = 0;
    const remembered = recent<string, number>({ size: 100, ms: 1_000 }, () => now);
    remembered.set('old', 1);
    now = 1_000;
    remembered.set('newer', 2);
    now = 2_000;
    remembered.set('newest', 3);
    expect([remembered.has('old'), remembered.get('newer'), remembered.get('newest')]).toEqual([false, 2, 3]);
  });

  it('knows values that are null or false, and forgets a deleted key in both generations', () => {
    const remembered = recent<string, unknown>({ size: 1 });
    remembered.set('none', null);
    remembered.set('no', false);
    expect([remembered.has('none'), remembered.get('none'), remembered.get('no')]).toEqual([
      true,
      null,
      false,
    ]);
    remembered.delete('none');
    expect(remembered.has('none')).toBe(false);
  });

  it('answers the newer value of a key remembered in both generations', () => {
    const remembered = recent<string, number>({ size: 1 });
    remembered.set('key', 1);
    remembered.set('key', 2);
    expect(remembered.get('key')).toBe(2);
  });
});
