import { z } from 'zod';
import { defineEvent, type EventsOf } from '../../events/catalog';
import { PERSON, ROLES } from '../principal';

/** `key_` and 16 lowercase letters or digits (82 random bits): a key's id, and the suffix of its stream. */
export const KEY_ID = /^key_[a-z0-9]{16}$/;

/** 1 to 100 characters, none of them control, format or line-separating characters, not all blank. */
export const KEY_NAME = /^(?=.*\S)[^\p{C}\p{Zl}\p{Zp}]{1,100}$/u;

const id = z.string().regex(KEY_ID);
const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

export const keyEvents = [
  defineEvent(
    'KeyIssued',
    z.object({
      id,
      name: z.string().regex(KEY_NAME),
      roles: z.array(z.enum(ROLES)).min(1),
      member: z.string().min(1).nullable(),
      workspace: z.string().min(1).nullable(),
      /** The person the key was issued to; keys issued before persons were recorded have none (`keyPerson`). */
      person: z.string().regex(PERSON).optional(),
      expires_at: z.string().nullable(),
      /** HMAC-SHA256 of the token (see `tokens.ts`); the token itself is never stored. */
      token_hmac: hex64,
    }),
  ),
  defineEvent('KeyRevoked', z.object({ id })),
  defineEvent('KeyExpired', z.object({ id })),
] as const;

export type KeyEvent = EventsOf<typeof keyEvents>;
export type KeyEventOf<Type extends KeyEvent['type']> = Extract<KeyEvent, { type: Type }>;

export const iamStreams = {
  key: (keyId: string) => `iam.key-${keyId}`,
};

/**
 * A key stops being valid at its `expires_at`. Timestamps are compared as instants (not as text), so
 * a clock of another precision compares right too.
 */
/** The person a key stands for: the one it was issued to, else its member, else the key itself. */
export const keyPerson = (key: { id: string; person?: string; member: string | null }): string =>
  key.person ?? key.member ?? `key:${key.id}`;

export const hasExpired = (expiresAt: string | null, now: Date): boolean =>
  expiresAt !== null && now.getTime() >= Date.parse(expiresAt);
