import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '../../src/api/kit/logging';
import type { CommandContext } from '../../src/commands/context';
import { loadConfig } from '../../src/config';
import { newEventId } from '../../src/events/event-ids';
import { issueKey, keyAuthenticator, revokeKey, type KeyRequest } from '../../src/iam';
import { openSuite, type Suite } from '../../src/main';
import { testMetadata } from '../support/stored-event';
import { tempDir } from '../support/temp-dir';

const SECRET = 'test-server-secret-0123456789abcdef';
const START = new Date('2026-11-21T09:30:00Z');
const unauthorized = {
  code: 'unauthorized',
  message: 'A valid bearer token is required',
};

describe('API keys in the store', () => {
  const { dir, cleanup } = tempDir();
  let now = START;
  const clock = { now: () => now };
  let suite: Suite;
  const authenticate = (token: string, secret = SECRET) =>
    keyAuthenticator(suite.readStore, secret, clock)(token);

  const context = (): CommandContext => ({
    eventStore: suite.eventStore,
    ids: suite.ids,
    clock,
    eventId: newEventId,
    metadata: () => ({ ...testMetadata, actor: 'os:ops', occurred_at: now.toISOString() }),
  });
  const request = (overrides: Partial<KeyRequest> = {}): KeyRequest => ({
    name: 'Service desk integration',
    roles: ['esm:writer', 'esm:reader'],
    member: null,
    workspace: null,
    expiresIn: null,
    ...overrides,
  });
  const projected = async () => suite.runtime.waitFor(await suite.eventStore.headPosition());
  const issue = async (overrides: Partial<KeyRequest> = {}) => {
    const key = await issueKey(context(), request(overrides), SECRET);
    await projected();
    return key;
  };
  const keyEvents = (id: string) => suite.storedEvents.readStream(`iam.key-${id}`);

  beforeAll(async () => {
    const config = loadConfig({ SUITE_DATA_DIR: dir, SUITE_SEED: 'none' });
    suite = await openSuite(config, { logger: createLogger('silent'), clock, modules: [] });
    await suite.runtime.start();
  });
  afterAll(async () => {
    await suite.close();
    cleanup();
  });
  afterEach(() => {
    now = START;
  });

  it('authenticates a key as the principal it names', async () => {
    const key = await issue();
    await expect(authenticate(key.token)).resolves.toEqual({
      id: `key:${key.id}`,
      kind: 'key',
      name: 'Service desk integration',
      roles: ['esm:writer', 'esm:reader'],
      person: `key:${key.id}`,
    });
  });

  it('answers null for a token that is not of the key format, for another authenticator to try', async () => {
    await expect(authenticate('an-api-token-0123456789')).resolves.toBeNull();
  });

  it('refuses a token with the wrong secret part, or checked under another server secret', async () => {
    const key = await issue();
    const forged = `${key.token.slice(0, -43)}${'A'.repeat(43)}`;
    await expect(authenticate(forged)).rejects.toMatchObject(unauthorized);
    await expect(authenticate(key.token, `${SECRET}-rotated`)).rejects.toMatchObject(unauthorized);
  });

  it('refuses a token naming a key that was never issued', async () => {
    await expect(authenticate(`suite_key_0000000000000000_${'A'.repeat(43)}`)).rejects.toMatchObject(
      unauthorized,
    );
  });

  it('refuses a revoked key once the revocation is projected', async () => {
    const key = await issue();
    await revokeKey(context(), key.id);
    await projected();
    await expect(authenticate(key.token)).rejects.toMatchObject(unauthorized);
  });

  it('refuses a key past its expiry before any expiry is recorded, and the sweep then records it once', async () => {
    const key = await issue({ expiresIn: 3_600 });
    expect(key.expires_at).toBe('2026-11-21T10:30:00Z');
    now = new Date('2026-11-21T10:29:59Z');
    await expect(authenticate(key.token)).resolves.toMatchObject({ id: `key:${key.id}` });
    now = new Date('2026-11-21T10:30:00Z');
    await expect(authenticate(key.token)).rejects.toMatchObject(unauthorized);
    expect((await keyEvents(key.id)).map((event) => event.type)).toEqual(['KeyIssued']);

    await suite.expiries.start();
    await suite.expiries.start();
    const events = await keyEvents(key.id);
    expect(events.map((event) => event.type)).toEqual(['KeyIssued', 'KeyExpired']);
    expect(events[1]?.metadata).toMatchObject({
      actor: 'worker:key-expiry',
      occurred_at: '2026-11-21T10:30:00Z',
    });
    await projected();
    const record = JSON.parse((await suite.readStore.get('iam.keys', key.id)) as string) as object;
    expect(record).toMatchObject({ status: 'expired', created_by: 'os:ops' });
  });

  it('binds a key to a member of a contract workspace', async () => {
    await suite.storedEvents.append(
      'clm.member-m-acme-owner',
      [
        {
          type: 'MemberAdded',
          schema_version: 1,
          data: {
            member_id: 'm-acme-owner',
            workspace_id: 'ws-acme',
            name: 'A',
            email: 'a@acme.example',
            job_title: 'Owner',
            role: 'owner',
          },
        },
      ],
      { expectedRevision: 'no_stream', metadata: testMetadata },
    );
    const key = await issue({ roles: ['clm:writer'], member: 'm-acme-owner', workspace: 'ws-acme' });
    await expect(authenticate(key.token)).resolves.toMatchObject({
      member: 'm-acme-owner',
      workspace: 'ws-acme',
    });
    await expect(
      issueKey(
        context(),
        request({ roles: ['clm:writer'], member: 'm-acme-owner', workspace: 'ws-other' }),
        SECRET,
      ),
    ).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('keeps only HMACs: no token is anywhere in the store, and no two keys share an HMAC', async () => {
    const keys = [await issue(), await issue()];
    const records = await Promise.all(
      keys.map(
        async (key) =>
          JSON.parse((await suite.readStore.get('iam.keys', key.id)) as string) as { token_hmac: string },
      ),
    );
    expect(records[0]?.token_hmac).not.toBe(records[1]?.token_hmac);
    const files = readdirSync(dir).map((file) => readFileSync(path.join(dir, file)));
    for (const { token } of keys) {
      for (const file of files) expect(file.includes(token)).toBe(false);
      for (const file of files) expect(file.includes(token.slice(-43))).toBe(false);
    }
  });
});
