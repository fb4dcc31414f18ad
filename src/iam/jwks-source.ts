import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** Where the identity provider's public keys are: its JWKS endpoint, or a JWKS file kept beside the suite. */
export type JwksSource = { url: URL } | { file: string };

/** An identity provider on this machine (tests, development) may serve its keys over plain HTTP. */
const isLoopback = (hostname: string) =>
  hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);

function urlSource(value: string): JwksSource | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  // fetch refuses credentials in a URL; refusing them here keeps a password out of the configuration.
  if (url.username !== '' || url.password !== '') return undefined;
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
  return secure ? { url } : undefined;
}

function fileSource(value: string): JwksSource | undefined {
  const file = path.resolve(value);
  try {
    accessSync(file, constants.R_OK);
    return statSync(file).isFile() ? { file } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `SUITE_OIDC_JWKS` read: an `https://` URL, an `http://` URL of a loopback host, or a readable file
 * (resolved against the working directory); `undefined` for anything else.
 */
export const jwksSource = (value: string): JwksSource | undefined =>
  /^[a-z][a-z\d+.-]*:\/\//i.test(value) ? urlSource(value) : fileSource(value);
