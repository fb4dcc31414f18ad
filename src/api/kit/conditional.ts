import { hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** How every read answered with an entity tag may be kept: by the caller only, and revalidated each use. */
export const READ_CACHE_CONTROL = 'private, no-cache';

/**
 * The strong entity tag of an answer's body: a hash of its exact bytes, so that it changes exactly
 * when the read model's state as served does.
 */
export function entityTag(body: Buffer): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

const ENTITY_TAG = /(?:W\/)?("[^"]*")/g;

/**
 * Whether the request's `If-None-Match` names the current representation (`tag`): `*`, or any tag of
 * its list by the weak comparison RFC 9110 (13.1.2) asks for a GET or HEAD, a `W/` prefix ignored.
 */
export function notModified(req: IncomingMessage, tag: string): boolean {
  const header = req.headers['if-none-match'];
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  for (const [, opaque] of header.matchAll(ENTITY_TAG)) if (opaque === tag) return true;
  return false;
}
