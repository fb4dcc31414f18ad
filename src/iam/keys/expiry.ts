import type { Expiring } from '../../workers/expiry-sweep';
import { expireKey } from './commands';
import { KEYS_COLLECTION } from './projection';

/** Active API keys past their `expires_at` are recorded as expired (`KeyExpired`). */
export const keyExpiry: Expiring = {
  name: 'key-expiry',
  collection: KEYS_COLLECTION,
  live: { field: 'status', op: 'eq', value: 'active' },
  expire: expireKey,
};
