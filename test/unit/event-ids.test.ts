import { recordId } from '../../src/clm/ids';
import { newEventId } from '../../src/events/event-ids';
import { seededRandom } from '../../src/seed/random';

describe('event ids', () => {
  it('are version-7 UUIDs that sort in the order they were drawn', () => {
    const ids = Array.from({ length: 1000 }, () => newEventId());
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('give distinct contract record ids when drawn in the same millisecond', () => {
    const at = new Date('2026-11-24T12:00:00Z');
    const ids = Array.from({ length: 1000 }, () => recordId('ctr', at, newEventId()));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('leave the record ids drawn from the seed (version-4 UUIDs) as they were', () => {
    const uuid = seededRandom('demo:clm').uuid();
    const at = new Date('2026-11-24T12:00:00Z');
    expect(recordId('ctr', at, uuid)).toBe(
      `ctr_0${at.getTime().toString(36)}${uuid.replace(/-/g, '').slice(0, 10)}`,
    );
  });
});
