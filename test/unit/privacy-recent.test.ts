import { Recent } from '../../src/privacy/recent';

describe('Recent: what was remembered lately, in two generations', () => {
  it('finds what was remembered in this generation and the one before, and forgets the one before that', () => {
    const recent = new Recent<string, number>({ size: 2 });
    recent.set('a', 1);
    recent.set('b', 2);
    recent.set('c', 3); // the first generation is full: a new one starts
    expect([recent.get('a'), recent.get('b'), recent.get('c')]).toEqual([1, 2, 3]);
    recent.set('d', 4);
    recent.set('e', 5); // a third generation: the first is dropped
    expect([recent.has('a'), recent.has('b'), recent.get('c'), recent.get('e')]).toEqual([
      false,
      false,
      3,
      5,
    ]);
  });

  it('starts a new generation once the current one is older than its time', () => {
    let now = 0;
    const recent = new Recent<string, number>({ size: 100, ms: 1_000 }, () => now);
    recent.set('old', 1);
    now = 1_000;
    recent.set('newer', 2);
    now = 2_000;
    recent.set('newest', 3);
    expect([recent.has('old'), recent.get('newer'), recent.get('newest')]).toEqual([false, 2, 3]);
  });

  it('knows values that are null or false, and forgets a deleted key in both generations', () => {
    const recent = new Recent<string, unknown>({ size: 1 });
    recent.set('none', null);
    recent.set('no', false);
    expect([recent.has('none'), recent.get('none'), recent.get('no')]).toEqual([true, null, false]);
    recent.delete('none');
    expect(recent.has('none')).toBe(false);
  });

  it('answers the newer value of a key remembered in both generations', () => {
    const recent = new Recent<string, number>({ size: 1 });
    recent.set('key', 1);
    recent.set('key', 2);
    expect(recent.get('key')).toBe(2);
  });
});
