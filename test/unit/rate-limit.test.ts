import { createRateLimiter } from '../../src/api/kit/rate-limit';

describe('rate limiter', () => {
  it('drops the buckets of idle keys, so that a stream of new keys does not grow it without bound', () => {
    let time = 0;
    // A bucket fills up from empty in 2 s.
    const limiter = createRateLimiter({ capacity: 4, refillPerSecond: 2 }, () => time);
    let largest = 0;
    let refused = 0;
    for (let key = 0; key < 10_000; key++) {
      time += 10;
      if (!limiter.take(`caller-${key}`).ok) refused += 1;
      largest = Math.max(largest, limiter.size());
    }
    expect(refused).toBe(0);
    // 100 new keys a second, each idle after its request: those of the last two fill times at most.
    expect(largest).toBeLessThanOrEqual(400);
  });

  it('still limits a key that stays active while the idle ones are dropped', () => {
    let time = 0;
    const limiter = createRateLimiter({ capacity: 4, refillPerSecond: 2 }, () => time);
    const decisions: boolean[] = [];
    for (let step = 0; step < 1000; step++) {
      time += 100;
      limiter.take(`passer-by-${step}`);
      // Four requests every 100 ms: 40 a second against 2 regained.
      for (let request = 0; request < 4; request++) decisions.push(limiter.take('busy').ok);
    }
    expect(decisions.filter((ok) => ok).length).toBeLessThan(250);
    expect(limiter.take('busy')).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('answers a key whose bucket was dropped as one that never asked: a full burst', () => {
    let time = 0;
    const limiter = createRateLimiter({ capacity: 3, refillPerSecond: 1 }, () => time);
    for (let request = 0; request < 3; request++) limiter.take('returning');
    expect(limiter.take('returning').ok).toBe(false);
    time += 10_000;
    limiter.take('someone else');
    expect(limiter.size()).toBe(1);
    const burst = [1, 2, 3, 4].map(() => limiter.take('returning').ok);
    expect(burst).toEqual([true, true, true, false]);
  });
});
