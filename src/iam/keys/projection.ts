import type { StoredEvent } from '../../events/envelope';
import type { DocumentProjection } from '../../projections/projection';
import type { CollectionDefinition } from '../../projections/read-store';
import type { Role } from '../principal';
import type { KeyStatus } from './decider';
import { keyPerson, type KeyEvent } from './events';

export const KEYS_COLLECTION = 'iam.keys';

export type KeyRecord = {
  id: string;
  name: string;
  roles: Role[];
  member: string | null;
  workspace: string | null;
  /** The person the key stands for (`keyPerson`). */
  person: string;
  created_at: string;
  /** The actor who issued it (`os:<user>` for `suite keys create`). */
  created_by: string;
  expires_at: string | null;
  status: KeyStatus;
  revoked_at: string | null;
  token_hmac: string;
};

export const keysCollection: CollectionDefinition = {
  name: KEYS_COLLECTION,
  idKind: 'string',
  searchFields: ['name'],
  // The expiry sweep looks for active keys whose `expires_at` has passed.
  filterFields: ['status', 'expires_at'],
};

type Event = StoredEvent & KeyEvent;

export const keysProjection: DocumentProjection<KeyRecord> = {
  collection: KEYS_COLLECTION,
  handles: ['KeyIssued', 'KeyRevoked', 'KeyExpired'],
  documentId: (event) => (event as Event).data.id,
  evolve(doc, stored) {
    const event = stored as Event;
    const { actor, occurred_at } = event.metadata;
    if (event.type === 'KeyIssued') {
      return {
        ...event.data,
        person: keyPerson(event.data),
        created_at: occurred_at,
        created_by: actor,
        status: 'active',
        revoked_at: null,
      };
    }
    if (!doc) return null;
    if (event.type === 'KeyRevoked') return { ...doc, status: 'revoked', revoked_at: occurred_at };
    return { ...doc, status: 'expired' };
  },
};
