import { recentEvents, streamCache } from '../../src/events/event-caches';
import type { StoredEvent } from '../../src/events/envelope';

const at = (position: number) => ({ position, stream: `test.thing-${position}` }) as StoredEvent;

describe('recent events', () => {
  it('serves the events after a position when its unbroken run reaches the head', () => {
    const recent = recentEvents(100);
    recent.remember([at(5), at(6), at(7)]);
    expect(recent.after(5, 10, 7)?.map((event) => event.position)).toEqual([6, 7]);
    expect(recent.after(4, 2, 7)?.map((event) => event.position)).toEqual([5, 6]);
    expect(recent.after(7, 10, 7)).toEqual([]);
  });

  it('declines what it cannot answer whole: before its run, or a head it has not seen', () => {
    const recent = recentEvents(100);
    recent.remember([at(5), at(6)]);
    expect(recent.after(3, 10, 6)).toBeUndefined();
    expect(recent.after(5, 10, 8)).toBeUndefined();
  });

  it('starts a new run when positions break (another process wrote in between), and keeps at most its limit', () => {
    const recent = recentEvents(3);
    recent.remember([at(1), at(2)]);
    recent.remember([at(4)]);
    expect(recent.after(1, 10, 4)).toBeUndefined();
    expect(recent.after(3, 10, 4)?.map((event) => event.position)).toEqual([4]);
    recent.remember([at(5), at(6), at(7)]);
    expect(recent.after(3, 10, 7)).toBeUndefined();
    expect(recent.after(4, 10, 7)?.map((event) => event.position)).toEqual([5, 6, 7]);
  });
});

describe('stream cache', () => {
  it('forgets the least recently used stream beyond its limit', () => {
    const cache = streamCache(2);
    cache.set('a', [at(1)]);
    cache.set('b', [at(2)]);
    cache.get('a');
    cache.set('c', [at(3)]);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual([at(1)]);
    expect(cache.get('c')).toEqual([at(3)]);
  });
});
