import { coalescing, retryingAfterFailure } from '../../src/coalescing';

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

  it.each([0, 1, 2, 3, 4, 5, 6, 7, 8])(
    'runs again for a call made %i turns of the event loop after a run began, however close to its end',
    async (turns) => {
      const happened: string[] = [];
      let callLater = Promise.resolve();
      const work = coalescing(async () => {
        happened.push('run');
        if (happened.length > 1) return;
        callLater = (async () => {
          for (let turn = 0; turn < turns; turn++) await Promise.resolve();
          happened.push('call');
          await work();
        })();
      });
      await work();
      await callLater;
      await work.settled();

      expect(happened).toEqual(['run', 'call', 'run']);
    },
  );

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

describe('retryingAfterFailure', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs failed work again after the delay, doubling it while it keeps failing, and not after a success', async () => {
    let runs = 0;
    const errors: string[] = [];
    const work = retryingAfterFailure(
      async () => {
        runs += 1;
        if (runs < 3) throw new Error(`failure ${runs}`);
      },
      (error) => errors.push((error as Error).message),
      20,
    );
    work.run();
    await jest.advanceTimersByTimeAsync(19);
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    await jest.advanceTimersByTimeAsync(39);
    expect(runs).toBe(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toBe(3);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(3);
    expect(errors).toEqual(['failure 1', 'failure 2']);
  });

  it('retries once however many runs a failure reached', async () => {
    let runs = 0;
    const shared = coalescing(async () => {
      runs += 1;
      if (runs === 1) throw new Error('store unavailable');
    });
    const work = retryingAfterFailure(shared, () => {}, 20);
    work.run();
    work.run();
    work.run();
    await jest.advanceTimersByTimeAsync(60_000);

    expect(runs).toBe(2);
  });

  it('retries no more once stopped', async () => {
    let runs = 0;
    const work = retryingAfterFailure(
      async () => {
        runs += 1;
        throw new Error('store unavailable');
      },
      () => {},
      20,
    );
    work.run();
    await jest.advanceTimersByTimeAsync(5);
    work.stop();
    await jest.advanceTimersByTimeAsync(60_000);

    expect(runs).toBe(1);
  });
});
