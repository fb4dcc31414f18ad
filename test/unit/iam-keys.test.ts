import { keyDecider, type IssueKey } from '../../src/iam/keys/decider';
import type { KeyEventOf } from '../../src/iam/keys/events';
import { keysProjection } from '../../src/iam/keys/projection';
import { keyIdOf, newKeyId, newToken, sameHmac, tokenHasher } from '../../src/iam/keys/tokens';
import { deciderSpec } from '../support/decider-spec';
import { storedEvent, testMetadata } from '../support/stored-event';

const SECRET = 'a-server-secret-of-at-least-32-bytes!';
const id = 'key_0123456789abcdef';
const key: KeyEventOf<'KeyIssued'>['data'] = {
  id,
  name: 'Service desk integration',
  roles: ['esm:writer'],
  member: null,
  workspace: null,
  expires_at: '2027-02-19T09:30:00Z',
  token_hmac: 'ab'.repeat(32),
};
const issued: KeyEventOf<'KeyIssued'> = { type: 'KeyIssued', data: key };
const revoked: KeyEventOf<'KeyRevoked'> = { type: 'KeyRevoked', data: { id } };
const expired: KeyEventOf<'KeyExpired'> = { type: 'KeyExpired', data: { id } };
const issue = (overrides: Partial<IssueKey> = {}): IssueKey => ({
  type: 'IssueKey',
  key,
  memberWorkspace: undefined,
  ...overrides,
});
const bound = { ...key, roles: ['clm:writer' as const], member: 'm-acme-owner', workspace: 'ws-acme' };
const expireAt = (at: string) => ({ type: 'ExpireKey' as const, id, at: new Date(at) });

describe('API keys', () => {
  const given = deciderSpec(keyDecider);

  it('issues a key once', () => {
    given([]).when(issue()).then([issued]);
    given([issued]).when(issue()).thenThrows({ code: 'already_exists' });
  });

  it('binds a key to a member of the workspace it names, with a contracts role', () => {
    given([])
      .when(issue({ key: bound, memberWorkspace: 'ws-acme' }))
      .then([{ type: 'KeyIssued', data: bound }]);
  });

  it('refuses a member of another workspace, or one that does not exist', () => {
    given([])
      .when(issue({ key: bound, memberWorkspace: 'ws-other' }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^member:/) });
    given([])
      .when(issue({ key: bound, memberWorkspace: undefined }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^member:/) });
  });

  it('refuses a member-bound key without a clm: role, and a member without a workspace', () => {
    given([])
      .when(issue({ key: { ...bound, roles: ['esm:writer'] }, memberWorkspace: 'ws-acme' }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^roles:/) });
    given([])
      .when(issue({ key: { ...bound, workspace: null }, memberWorkspace: 'ws-acme' }))
      .thenThrows({ code: 'validation_error' });
  });

  it('revokes an active key once; revoking an ended key changes nothing', () => {
    given([issued]).when({ type: 'RevokeKey', id }).then([revoked]);
    given([issued, revoked]).when({ type: 'RevokeKey', id }).then([]);
    given([issued, expired]).when({ type: 'RevokeKey', id }).then([]);
  });

  it('expires a key at its expires_at or after, once', () => {
    given([issued]).when(expireAt('2027-02-19T09:30:00Z')).then([expired]);
    given([issued, expired]).when(expireAt('2027-03-01T00:00:00Z')).then([]);
    given([issued, revoked]).when(expireAt('2027-03-01T00:00:00Z')).then([]);
  });

  it('refuses to expire a key before its expires_at, or one that never expires', () => {
    given([issued]).when(expireAt('2027-02-19T09:29:59Z')).thenThrows({ code: 'illegal_transition' });
    given([{ type: 'KeyIssued', data: { ...key, expires_at: null } }])
      .when(expireAt('2099-01-01T00:00:00Z'))
      .thenThrows({ code: 'illegal_transition' });
  });

  it('answers not_found for a key that was never issued', () => {
    given([]).when({ type: 'RevokeKey', id }).thenThrows({ code: 'not_found' });
    given([]).when(expireAt('2027-03-01T00:00:00Z')).thenThrows({ code: 'not_found' });
  });
});

describe('API key tokens', () => {
  it('name their key: suite_, the key id, and 43 characters of base64url', () => {
    const keyId = newKeyId();
    expect(keyId).toMatch(/^key_[a-z0-9]{16}$/);
    const token = newToken(keyId);
    expect(token).toMatch(new RegExp(`^suite_${keyId}_[A-Za-z0-9_-]{43}$`));
    expect(keyIdOf(token)).toBe(keyId);
  });

  it('are not keys when they are of another format', () => {
    for (const other of [
      '',
      'an-api-token',
      `suite_${id}_short`,
      `suite_key_UPPERCASE0123456_${'a'.repeat(43)}`,
    ]) {
      expect(keyIdOf(other)).toBeNull();
    }
    expect(keyIdOf(`${newToken(id)}x`)).toBeNull();
  });

  it('are kept as an HMAC under the server secret: never two alike, and another secret does not match', () => {
    const hmacOf = tokenHasher(SECRET);
    const tokens = Array.from({ length: 100 }, () => newToken(id));
    const hmacs = tokens.map(hmacOf);
    expect(new Set(hmacs).size).toBe(100);
    for (const [index, hmac] of hmacs.entries()) {
      expect(hmac).toMatch(/^[0-9a-f]{64}$/);
      expect(hmac).not.toContain(tokens[index]);
      expect(sameHmac(hmacOf(tokens[index] as string), hmac)).toBe(true);
    }
    expect(sameHmac(tokenHasher(`${SECRET}-other`)(tokens[0] as string), hmacs[0] as string)).toBe(false);
    expect(sameHmac(hmacs[0] as string, hmacs[1] as string)).toBe(false);
  });
});

describe('the iam.keys read model', () => {
  const fold = (...events: ReturnType<typeof storedEvent>[]) =>
    events.reduce<ReturnType<typeof keysProjection.evolve>>(keysProjection.evolve, null);
  const at = (occurred_at: string, actor = 'os:ops') => ({
    metadata: { ...testMetadata, actor, occurred_at },
  });
  const stream = `iam.key-${id}`;

  it('records who issued a key and when, active, issued to the key itself when it names no person', () => {
    const record = fold(
      storedEvent(stream, 0, { type: 'KeyIssued', data: key, ...at('2026-11-21T09:30:00Z') }),
    );
    expect(record).toEqual({
      ...key,
      person: `key:${id}`,
      created_at: '2026-11-21T09:30:00Z',
      created_by: 'os:ops',
      status: 'active',
      revoked_at: null,
    });
    expect(keysProjection.documentId(storedEvent(stream, 0, { type: 'KeyIssued', data: key }))).toBe(id);
  });

  it('records a revocation with its time, and an expiry', () => {
    const issuedAt = storedEvent(stream, 0, { type: 'KeyIssued', data: key, ...at('2026-11-21T09:30:00Z') });
    const revokedAt = storedEvent(stream, 1, {
      type: 'KeyRevoked',
      data: { id },
      ...at('2026-11-22T10:00:00Z'),
    });
    expect(fold(issuedAt, revokedAt)).toMatchObject({
      status: 'revoked',
      revoked_at: '2026-11-22T10:00:00Z',
    });
    const expiredAt = storedEvent(stream, 1, {
      type: 'KeyExpired',
      data: { id },
      ...at('2027-02-19T09:30:05Z'),
    });
    expect(fold(issuedAt, expiredAt)).toMatchObject({ status: 'expired', revoked_at: null });
  });
});
