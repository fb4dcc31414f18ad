import { createHash, createHmac } from 'node:crypto';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** A seeded generator: the same seed string gives the same sequence on every machine. */
export interface SeededRandom {
  int(min: number, max: number): number;
  /** In [0, 1). */
  float(): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight: `{ Low: 25, Medium: 45 }`. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K;
  /** A version-4 UUID drawn from the sequence. */
  uuid(): string;
}

export function seededRandom(seed: string): SeededRandom {
  const rng = xoroshiro128plus(createHash('sha256').update(seed).digest().readInt32LE(0));
  const random: SeededRandom = {
    int: (min, max) => uniformInt(rng, min, max),
    float: () => uniformFloat64(rng),
    chance: (probability) => uniformFloat64(rng) < probability,
    pick: (items) => items[uniformInt(rng, 0, items.length - 1)] as (typeof items)[number],
    weighted(weights) {
      const entries = Object.entries(weights) as [keyof typeof weights, number][];
      let roll = uniformFloat64(rng) * entries.reduce((sum, [, weight]) => sum + weight, 0);
      for (const [key, weight] of entries) {
        roll -= weight;
        if (roll < 0) return key;
      }
      return (entries[entries.length - 1] as [keyof typeof weights, number])[0];
    },
    uuid() {
      const bytes = Buffer.alloc(16);
      for (let index = 0; index < 16; index++) bytes[index] = uniformInt(rng, 0, 255);
      bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
      bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
      const hex = bytes.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
  return random;
}

/**
 * A seeded stream of bytes (HMAC-SHA256 of the seed over a counter): the demo data's subject keys
 * and IVs, so that two first starts with one seed write the same log. Never for real data.
 */
export function seededBytes(seed: string): (size: number) => Buffer {
  let counter = 0;
  return (size) => {
    const chunks: Buffer[] = [];
    for (let length = 0; length < size; length += 32) {
      chunks.push(createHmac('sha256', `seeded bytes:${seed}`).update(String(counter++)).digest());
    }
    return Buffer.concat(chunks).subarray(0, size);
  };
}
