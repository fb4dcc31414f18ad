import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { KEY_BYTES, open, sealedHeader } from '../../src/privacy/sealed-value';
import { openSqliteKeyStore } from '../../src/privacy/sqlite-key-store';
import { type KeptKey, type RandomBytes, type SubjectKeyStore } from '../../src/privacy/subject-keys';
import { seededBytes } from '../../src/seed/random';
import { tempDir } from '../support/temp-dir';

const ALICE = 'hrm.employee-1';
const BOB = 'hrm.employee-2';

/** Both files SQLite may keep a key in: the database and its write-ahead log. */
const rawFiles = (file: string) =>
  [file, `${file}-wal`].filter(existsSync).map((name) => ({ name, bytes: readFileSync(name) }));

/** The files (by name) in which the key's bytes appear. */
const filesHolding = (file: string, key: Buffer) =>
  rawFiles(file)
    .filter(({ bytes }) => bytes.indexOf(key) !== -1)
    .map(({ name }) => path.basename(name));

/** The keys of one subject, as the store answers for it. */
const keysOfOne = async (store: SubjectKeyStore, subject: string) =>
  (await store.keysOf([subject])).get(subject) as ReadonlyMap<string, Buffer>;

describe('the SQLite subject key store', () => {
  let dir: string;
  let cleanup: () => void;
  let file: string;
  const opened: SubjectKeyStore[] = [];
  const openStore = (name = file, random: RandomBytes = randomBytes) => {
    const store = openSqliteKeyStore(name, random);
    opened.push(store);
    return store;
  };
  const close = async (store: SubjectKeyStore) => {
    opened.splice(opened.indexOf(store), 1);
    await store.close();
  };

  beforeEach(() => {
    ({ dir, cleanup } = tempDir('suite-keys-'));
    file = path.join(dir, 'keys.db');
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    cleanup();
  });

  describe('sealingKeys', () => {
    it('makes one 32-byte key for each subject that has none, its id derived from it', async () => {
      const keys = openStore();
      const sealing = await keys.sealingKeys([ALICE, BOB, ALICE]);
      expect([...sealing.keys()].sort()).toEqual([ALICE, BOB]);
      const alice = sealing.get(ALICE)!;
      const bob = sealing.get(BOB)!;
      expect(alice.id).toMatch(/^[0-9a-f]{16}$/);
      // The first 8 bytes of SHA-256 over the domain and the key, computed here apart from the store.
      const derived = createHash('sha256').update('suite subject key\n').update(alice.key).digest('hex');
      expect(alice.id).toBe(derived.slice(0, 16));
      expect(alice.key).toHaveLength(KEY_BYTES);
      expect(alice.id).not.toBe(bob.id);
      expect(alice.key.equals(bob.key)).toBe(false);
    });

    it('answers nothing for no subjects', async () => {
      expect((await openStore().sealingKeys([])).size).toBe(0);
    });

    it('returns the same key for a subject the next time', async () => {
      const keys = openStore();
      const first = (await keys.sealingKeys([ALICE])).get(ALICE)!;
      const second = await keys.sealingKeys([BOB, ALICE]);
      expect(second.get(ALICE)).toEqual(first);
      expect((await keys.allKeys()).filter(({ subject }) => subject === ALICE)).toHaveLength(1);
    });

    it('returns the same key after the file was closed and opened again', async () => {
      const keys = openStore();
      const first = (await keys.sealingKeys([ALICE])).get(ALICE)!;
      await close(keys);
      const reopened = openStore();
      expect((await reopened.sealingKeys([ALICE])).get(ALICE)).toEqual(first);
      expect(await keysOfOne(reopened, ALICE)).toEqual(new Map([[first.id, first.key]]));
    });

    it('returns the key another store on the same file made', async () => {
      const one = openStore();
      const made = (await one.sealingKeys([ALICE])).get(ALICE)!;
      expect((await openStore().sealingKeys([ALICE])).get(ALICE)).toEqual(made);
    });

    it('opens values under a key another store handed out after it looked, by its id', async () => {
      const one = openStore();
      const made = (await one.sealingKeys([ALICE])).get(ALICE)!;
      const other = openStore();
      expect((await other.keysNamed(new Map([[ALICE, new Set([made.id])]]))).get(ALICE)).toEqual(
        new Map([[made.id, made.key]]),
      );
    });
  });

  describe('spares', () => {
    /** The key ids of the spares kept in the file, as another connection reads them. */
    const spareIds = () => {
      const db = new Database(file, { readonly: true });
      const ids = db.prepare<[], { key_id: string }>('SELECT key_id FROM spare_keys').all();
      db.close();
      return ids.map(({ key_id }) => key_id);
    };
    /** What a power cut after the key was handed out, before that was on disk, leaves: the key a spare again. */
    const loseHandingOut = (subject: string, keyId: string) => {
      const db = new Database(file);
      db.pragma('secure_delete = ON');
      db.transaction(() => {
        db.prepare(
          'INSERT INTO spare_keys (key_id, key, created_at) ' +
            'SELECT key_id, key, created_at FROM subject_keys WHERE subject = ? AND key_id = ?',
        ).run(subject, keyId);
        db.prepare('DELETE FROM subject_keys WHERE subject = ? AND key_id = ?').run(subject, keyId);
      })();
      db.close();
    };

    it('are made durably in advance, many at once, and handed to new subjects', async () => {
      const keys = openStore();
      const alice = (await keys.sealingKeys([ALICE])).get(ALICE)!;
      const waiting = spareIds();
      expect(waiting.length).toBeGreaterThan(100);
      expect(waiting).not.toContain(alice.id);
      const bob = (await keys.sealingKeys([BOB])).get(BOB)!;
      expect(waiting).toContain(bob.id);
      expect(spareIds()).not.toContain(bob.id);
    });

    it('not handed out are dropped when the store closes, and are not among allKeys', async () => {
      const keys = openStore();
      const alice = (await keys.sealingKeys([ALICE])).get(ALICE)!;
      expect((await keys.allKeys()).map(({ id }) => id)).toEqual([alice.id]);
      await close(keys);
      expect(spareIds()).toEqual([]);
    });

    it('of a process that stopped without closing are never handed out by another', async () => {
      const crashed = openStore();
      await crashed.sealingKeys([ALICE]);
      const leftOver = spareIds();
      const bob = (await openStore().sealingKeys([BOB])).get(BOB)!;
      expect(leftOver).not.toContain(bob.id);
    });

    it('whose handing-out a crash lost are found again by the id their values name', async () => {
      const before = openStore();
      const alice = (await before.sealingKeys([ALICE])).get(ALICE)!;
      await close(before);
      loseHandingOut(ALICE, alice.id);

      const after = openStore();
      expect((await keysOfOne(after, ALICE)).size).toBe(0);
      const named = await after.keysNamed(new Map([[ALICE, new Set([alice.id, 'ffffffffffffffff'])]]));
      expect(named.get(ALICE)).toEqual(new Map([[alice.id, alice.key]]));
      // Given back to the subject: its next value is sealed under the same key, here and elsewhere.
      expect((await after.sealingKeys([ALICE])).get(ALICE)).toEqual(alice);
      expect((await openStore().sealingKeys([ALICE])).get(ALICE)).toEqual(alice);
    });

    it('whose handing-out a crash lost are erased with the subject, by the ids its values name', async () => {
      const before = openStore();
      const alice = (await before.sealingKeys([ALICE])).get(ALICE)!;
      await close(before);
      loseHandingOut(ALICE, alice.id);

      const keys = openStore();
      await keys.erase(ALICE, [alice.id]);
      expect(spareIds()).not.toContain(alice.id);
      expect(filesHolding(file, alice.key)).toEqual([]);
      expect((await keys.keysNamed(new Map([[ALICE, new Set([alice.id])]]))).get(ALICE)?.size).toBe(0);
    });
  });

  describe('keysOf', () => {
    it("returns the subject's keys by id", async () => {
      const keys = openStore();
      const sealing = await keys.sealingKeys([ALICE, BOB]);
      const alice = sealing.get(ALICE)!;
      const found = await keysOfOne(keys, ALICE);
      expect([...found.keys()]).toEqual([alice.id]);
      expect(found.get(alice.id)!.equals(alice.key)).toBe(true);
    });

    it('returns no keys for a subject never written', async () => {
      const keys = openStore();
      await keys.sealingKeys([ALICE]);
      expect((await keysOfOne(keys, 'hrm.employee-99')).size).toBe(0);
    });

    it('sees a key made after it was last asked (the cache follows its own store)', async () => {
      const keys = openStore();
      expect((await keysOfOne(keys, ALICE)).size).toBe(0);
      const made = (await keys.sealingKeys([ALICE])).get(ALICE)!;
      expect((await keysOfOne(keys, ALICE)).get(made.id)).toEqual(made.key);
    });
  });

  describe('erase', () => {
    it('removes every key of the subject and no other', async () => {
      const keys = openStore();
      const sealing = await keys.sealingKeys([ALICE, BOB]);
      await keys.erase(ALICE);
      expect((await keysOfOne(keys, ALICE)).size).toBe(0);
      expect((await keysOfOne(keys, BOB)).get(sealing.get(BOB)!.id)).toEqual(sealing.get(BOB)!.key);
      expect((await keys.allKeys()).map(({ subject }) => subject)).toEqual([BOB]);
    });

    it('removes the keys for every store opened on the file afterwards', async () => {
      const keys = openStore();
      await keys.sealingKeys([ALICE]);
      await keys.erase(ALICE);
      await close(keys);
      expect((await keysOfOne(openStore(), ALICE)).size).toBe(0);
    });

    it('tombstones the subject: no key is given to it again, by this store or one opened afterwards', async () => {
      const keys = openStore();
      await keys.sealingKeys([ALICE]);
      await keys.erase(ALICE);
      await expect(keys.sealingKeys([ALICE, BOB])).rejects.toMatchObject({
        code: 'subject_erased',
        details: { subjects: [ALICE] },
      });
      expect((await keys.sealingKeys([BOB])).has(BOB)).toBe(true);
      await close(keys);
      const reopened = openStore();
      await expect(reopened.sealingKeys([ALICE])).rejects.toMatchObject({ code: 'subject_erased' });
      expect((await keysOfOne(reopened, ALICE)).size).toBe(0);
    });

    it('keeps no key for a subject another store erased after it was handed one', async () => {
      const first = openStore();
      const second = openStore();
      const handed = (await first.sealingKeys([ALICE])).get(ALICE)!;
      await second.erase(ALICE);
      expect(await keysOfOne(openStore(), ALICE)).toEqual(new Map());
      // Asked for the key by its id (a value sealed under it), the store does not give it back either.
      expect(
        (await first.keysNamed(new Map([[ALICE, new Set([handed.id])]]))).get(ALICE)?.has(handed.id) ?? false,
      ).toBe(false);
    });

    it('leaves no copy of the key in keys.db or keys.db-wal', async () => {
      const keys = openStore();
      const sealing = await keys.sealingKeys([ALICE, BOB]);
      const alice = sealing.get(ALICE)!.key;
      const bob = sealing.get(BOB)!.key;
      // The keys are on disk before the erasure: the search below can find them.
      expect(filesHolding(file, alice).length).toBeGreaterThan(0);

      await keys.erase(ALICE);

      expect(filesHolding(file, alice)).toEqual([]);
      expect(filesHolding(file, bob).length).toBeGreaterThan(0);
      await close(keys);
      expect(filesHolding(file, alice)).toEqual([]);
    });

    it('leaves no copy of the keys it erased when the table spans many pages', async () => {
      const keys = openStore();
      // About 40 keys fit in a 4 KiB page: 300 take several leaves and an interior page.
      const subjects = Array.from({ length: 300 }, (_, index) => `hrm.employee-${index}`);
      const sealing = await keys.sealingKeys(subjects);
      const erased = subjects.filter((_, index) => index % 3 === 0);
      for (const subject of erased) await keys.erase(subject);

      const files = rawFiles(file);
      const found = (subject: string) =>
        files.some(({ bytes }) => bytes.indexOf(sealing.get(subject)!.key) !== -1);
      expect(erased.filter(found)).toEqual([]);
      expect(subjects.filter((subject) => !erased.includes(subject)).every(found)).toBe(true);
    });

    it('by the ids its values name is not undone by another store writing the key it handed out', async () => {
      const handing = openStore();
      const alice = (await handing.sealingKeys([ALICE])).get(ALICE)!;
      await openStore().erase(ALICE, [alice.id]);
      expect((await keysOfOne(openStore(), ALICE)).size).toBe(0);
      expect(filesHolding(file, alice.key)).toEqual([]);
    });

    it('leaves no copy of the key while another store has the file open', async () => {
      const keys = openStore();
      const other = openStore();
      const alice = (await keys.sealingKeys([ALICE, BOB])).get(ALICE)!;
      expect((await keysOfOne(other, ALICE)).size).toBe(1);
      await keys.erase(ALICE);
      expect(filesHolding(file, alice.key)).toEqual([]);
    });

    it('of a subject that has no keys does nothing', async () => {
      const keys = openStore();
      const bob = (await keys.sealingKeys([BOB])).get(BOB)!;
      await keys.erase(ALICE);
      expect((await keysOfOne(keys, BOB)).get(bob.id)).toEqual(bob.key);
    });
  });

  describe('concurrent writes about a new subject', () => {
    it('make it one key, written once for all of them', async () => {
      const keys = openStore();
      const answers = await Promise.all(Array.from({ length: 8 }, () => keys.sealingKeys([ALICE, BOB])));
      expect(new Set(answers.map((answer) => answer.get(ALICE)!.id)).size).toBe(1);
      expect(new Set(answers.map((answer) => answer.get(BOB)!.id)).size).toBe(1);
      expect((await keys.allKeys()).length).toBe(2);
    });

    it('of many subjects, are all kept in the file once they are answered', async () => {
      const keys = openStore();
      const subjects = Array.from({ length: 40 }, (_, n) => `hrm.employee-${n + 1}`);
      const answers = await Promise.all(subjects.map((subject) => keys.sealingKeys([subject])));
      const db = new Database(file, { readonly: true });
      const kept = db
        .prepare<[], { subject: string; key_id: string }>('SELECT subject, key_id FROM subject_keys')
        .all();
      db.close();
      expect(new Map(kept.map(({ subject, key_id }) => [subject, key_id]))).toEqual(
        new Map(subjects.map((subject, n) => [subject, answers[n]!.get(subject)!.id])),
      );
    });

    it('leave no key of a subject erased in the same turn as it was handed one', async () => {
      const keys = openStore();
      const [sealing] = await Promise.all([keys.sealingKeys([ALICE]), keys.erase(ALICE)]);
      await close(keys);
      expect(filesHolding(file, sealing.get(ALICE)!.key)).toEqual([]);
      expect((await keysOfOne(openStore(), ALICE)).size).toBe(0);
    });
  });

  describe("another process's erasure", () => {
    it('is seen within a second: a process trusts the keys it remembers that long', async () => {
      const first = openStore();
      const second = openStore();
      const made = (await first.sealingKeys([ALICE, BOB])).get(ALICE)!;
      expect((await keysOfOne(first, ALICE)).get(made.id)).toEqual(made.key);

      await second.erase(ALICE);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await keysOfOne(first, ALICE)).size).toBe(0);
      expect((await keysOfOne(first, BOB)).size).toBe(1);
      await expect(first.sealingKeys([ALICE])).rejects.toMatchObject({ code: 'subject_erased' });
    });
  });

  describe('allKeys and keep', () => {
    it('copy every key, with its subject and id, to another store', async () => {
      const source = openStore();
      const sealing = await source.sealingKeys([ALICE, BOB]);
      const all = await source.allKeys();
      expect(all).toHaveLength(2);
      expect(new Set(all.map(({ subject, id }) => `${subject}/${id}`))).toEqual(
        new Set([ALICE, BOB].map((subject) => `${subject}/${sealing.get(subject)!.id}`)),
      );

      const copy = openStore(path.join(dir, 'copy.db'));
      await copy.keep(all);
      for (const subject of [ALICE, BOB]) {
        const { id, key } = sealing.get(subject)!;
        expect(await keysOfOne(copy, subject)).toEqual(new Map([[id, key]]));
        expect((await copy.sealingKeys([subject])).get(subject)).toEqual({ id, key });
      }
      expect(await copy.allKeys()).toEqual(expect.arrayContaining(all));
    });

    it('keep makes kept keys visible even where the subject was looked up before', async () => {
      const source = openStore();
      await source.sealingKeys([ALICE]);
      const copy = openStore(path.join(dir, 'copy.db'));
      expect((await keysOfOne(copy, ALICE)).size).toBe(0);
      await copy.keep(await source.allKeys());
      expect((await keysOfOne(copy, ALICE)).size).toBe(1);
    });

    it('keep keeps the keys durably', async () => {
      const source = openStore();
      const made = (await source.sealingKeys([ALICE])).get(ALICE)!;
      const copyFile = path.join(dir, 'copy.db');
      const copy = openStore(copyFile);
      await copy.keep(await source.allKeys());
      await close(copy);
      expect(await keysOfOne(openStore(copyFile), ALICE)).toEqual(new Map([[made.id, made.key]]));
    });

    it('allKeys of an empty store is empty', async () => {
      expect(await openStore().allKeys()).toEqual([]);
    });
  });

  describe('with seeded random bytes', () => {
    it('makes the same key ids and keys for the same seed', async () => {
      const subjects = [ALICE, BOB, 'crm.contact-7'];
      const one = openStore(path.join(dir, 'one.db'), seededBytes('demo'));
      const two = openStore(path.join(dir, 'two.db'), seededBytes('demo'));
      const other = openStore(path.join(dir, 'other.db'), seededBytes('another seed'));
      const first = await one.sealingKeys(subjects);
      const second = await two.sealingKeys(subjects);
      const third = await other.sealingKeys(subjects);
      for (const subject of subjects) {
        expect(second.get(subject)).toEqual(first.get(subject));
        expect(third.get(subject)!.id).not.toBe(first.get(subject)!.id);
        expect(third.get(subject)!.key.equals(first.get(subject)!.key)).toBe(false);
      }
      const keysOf = (all: KeptKey[]) =>
        all.map(({ subject, id, key }) => `${subject}/${id}/${key.toString('hex')}`).sort();
      expect(keysOf(await two.allKeys())).toEqual(keysOf(await one.allKeys()));
    });
  });

  describe('seal', () => {
    const sealIn = async (keys: SubjectKeyStore) => {
      const sealing = await keys.sealingKeys([ALICE, BOB]);
      const [alice, bob] = keys.seal([
        { value: 'Alice Example', subject: ALICE, key: sealing.get(ALICE)!, erasedAs: 't' },
        { value: { email: 'bob@example.com' }, subject: BOB, key: sealing.get(BOB)!, erasedAs: 'n' },
      ]);
      return { sealing, alice: alice!, bob: bob! };
    };

    it('seals values under the keys the store handed out, each opening with its own key only', async () => {
      const { sealing, alice, bob } = await sealIn(openStore());
      expect(open(alice, sealing.get(ALICE)!.key)).toBe('Alice Example');
      expect(sealedHeader(bob)).toEqual({ subject: BOB, keyId: sealing.get(BOB)!.id, erasedAs: 'n' });
      expect(open(bob, sealing.get(BOB)!.key)).toEqual({ email: 'bob@example.com' });
      expect(() => open(alice, sealing.get(BOB)!.key)).toThrow();
    });

    it('seals values of every JSON kind, under keys of any bytes, as they were', async () => {
      const keys = openStore();
      const sealing = await keys.sealingKeys([ALICE]);
      const key = sealing.get(ALICE)!;
      const values = [
        0,
        -1.5e300,
        true,
        'früh 🙂 \u0000 "quoted"',
        ['a', null, { b: [1, 2] }],
        { deep: { er: null } },
      ];
      const sealed = keys.seal(values.map((value) => ({ value, subject: ALICE, key, erasedAs: 't' })));
      expect(sealed.map((value) => open(value, key.key))).toEqual(values);
      const highBytes = { id: 'f'.repeat(16), key: Buffer.from(Array.from({ length: 32 }, (_, i) => i * 8)) };
      const [withIt] = keys.seal([{ value: 'x', subject: BOB, key: highBytes, erasedAs: 'n' }]);
      expect(open(withIt!, highBytes.key)).toBe('x');
    });

    it("comes after the handing-out of its keys is written, with seeded random bytes as with the system's", async () => {
      const seeded = openStore(file, seededBytes('demo'));
      const { sealing, alice } = await sealIn(seeded);
      expect(open(alice, sealing.get(ALICE)!.key)).toBe('Alice Example');
      const db = new Database(file, { readonly: true });
      const written = db.prepare('SELECT key_id FROM subject_keys WHERE subject = ?').pluck().all(ALICE);
      db.close();
      expect(written).toEqual([sealing.get(ALICE)!.id]);
    });

    it('lets a process that sealed with it and never closed the store exit', () => {
      const script = `
        const { randomBytes } = require('node:crypto');
        const { openSqliteKeyStore } = require(${JSON.stringify(require.resolve('../../src/privacy/sqlite-key-store'))});
        const keys = openSqliteKeyStore(${JSON.stringify(file)}, randomBytes);
        keys.sealingKeys(['${ALICE}'])
          .then((sealing) => keys.seal([{ value: 'x', subject: '${ALICE}', key: sealing.get('${ALICE}'), erasedAs: 't' }]))
          .then(([sealed]) => console.log(sealed.split(':')[2]));
      `;
      const output = execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], {
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(output.trim()).toBe(ALICE);
    });
  });

  it('refuses to open a keys.db it cannot open', () => {
    expect(() => openStore(path.join(dir, 'missing', 'keys.db'))).toThrow(
      /directory does not exist|unable to open/,
    );
  });
});
