import type { Clock } from '../../clock';
import type { ReadStore } from '../../projections/read-store';
import { unauthorized, type Authenticator, type Principal } from '../principal';
import { hasExpired } from './events';
import { KEYS_COLLECTION, type KeyRecord } from './projection';
import { keyIdOf, sameHmac, tokenHasher } from './tokens';

function principalOf(key: KeyRecord): Principal {
  return {
    id: `key:${key.id}`,
    kind: 'key',
    name: key.name,
    roles: key.roles,
    person: key.person,
    ...(key.member !== null && { member: key.member }),
    ...(key.workspace !== null && { workspace: key.workspace }),
  };
}

/**
 * Authenticates API keys against the `iam.keys` read model, which a running suite keeps up with the
 * log: a key created or revoked by another process (`suite keys`) counts as soon as it is projected.
 * A key past its `expires_at` is refused before the sweep has recorded its expiry.
 */
export function keyAuthenticator(readStore: ReadStore, serverSecret: string, clock: Clock): Authenticator {
  const hmacOf = tokenHasher(serverSecret);
  return async (token) => {
    const id = keyIdOf(token);
    if (id === null) return null;
    const stored = await readStore.get(KEYS_COLLECTION, id);
    const key = stored === null ? null : (JSON.parse(stored) as KeyRecord);
    if (
      !key ||
      !sameHmac(hmacOf(token), key.token_hmac) ||
      key.status !== 'active' ||
      hasExpired(key.expires_at, clock.now())
    ) {
      throw unauthorized();
    }
    return principalOf(key);
  };
}
