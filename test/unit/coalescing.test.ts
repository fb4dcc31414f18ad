import { coalescing } from '../../src/coalescing';

describe('coalescing', () => {
  it('runs once more for any number of calls made during a run, and not again after', async () => {
    let runs = 0;
    let release: () => void = () => undefined;
    const work = coalescing(async () => {
      runs += 1;
      if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const first = work();
    const during = [work(), work(), work()];
    release();
    await Promise.all([first, ...during]);
    expect(runs).toBe(2);
    await work.settled();
    await work();
    expect(runs).toBe(3);
  });

  it('passes a failure to the callers of that run and runs afresh on the next call', async () => {
    let fail = true;
    const work = coalescing(async () => {
      if (fail) throw new Error('store unavailable');
    });
    await expect(work()).rejects.toThrow('store unavailable');
    await work.settled();
    fail = false;
    await expect(work()).resolves.toBeUndefined();
  });
});
