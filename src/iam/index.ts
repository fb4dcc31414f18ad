import type { Projector } from '../projections/projection';
import { keyEvents } from './keys/events';
import { keysCollection, keysProjection } from './keys/projection';

const iamProjector: Projector = {
  name: 'iam',
  // 2: every record carries created_at and updated_at (`evolveStamped`).
  version: 2,
  projections: [keysProjection],
};

/**
 * Identity, a capability of the kit rather than an HTTP module: its events (stream category `iam`),
 * the projector of its read models, and those read models.
 */
export const iamCapability = {
  id: 'iam',
  events: keyEvents,
  projector: iamProjector,
  collections: [keysCollection],
};

export { keyAuthenticator } from './keys/authenticate';
export { issueKey, revokeKey, type IssuedKey, type KeyRequest } from './keys/commands';
export { KEY_ID, KEY_NAME, hasExpired } from './keys/events';
export { keyExpiry } from './keys/expiry';
export type { KeyRecord } from './keys/projection';
export { keysInLog } from './keys/records';
