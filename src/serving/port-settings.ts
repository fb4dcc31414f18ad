import { createAuthThrottle } from '../api/kit/auth-throttle';
import { createIdentity, type Identity } from '../api/kit/identity';
import type { ModuleSettings } from '../api/kit/module';
import { resolveSessionSecret } from '../api/kit/session-secret';
import type { Config } from '../config';
import { keyAuthenticator } from '../iam';
import { createOidcAuthenticator } from '../iam/oidc';
import type { Suite } from '../main';

/**
 * Who the process's bearer credentials name: the bootstrap tokens, the API keys of the read model
 * (`suite keys create`), and the identity provider's tokens when one is configured.
 */
export function processIdentity(config: Config, suite: Suite): Identity {
  const keys = keyAuthenticator(suite.readStore, resolveSessionSecret(config), suite.clock);
  const oidc = config.oidc ? [createOidcAuthenticator(config.oidc)] : [];
  return createIdentity({
    apiToken: config.apiToken,
    auditToken: config.auditToken,
    authenticators: [keys, ...oidc],
    federated: config.oidc !== undefined,
  });
}

/**
 * What every module's app takes from the configuration: its secrets, the identity, the rate limits
 * and the access options. Its failed-authentication throttle is the one every port of the process
 * shares. Read-only, no credential is taken: writes (and whatever needs a credential) answer 503.
 */
export function moduleSettings(
  config: Config,
  identity: Identity,
  { readOnly = false } = {},
): ModuleSettings {
  return {
    apiToken: readOnly ? undefined : config.apiToken,
    identity: readOnly ? createIdentity({}) : identity,
    sessionSecret: resolveSessionSecret(config),
    writeRateLimit: config.writeRateLimit,
    authThrottle: createAuthThrottle(config.authFailureLimit),
    reads: config.reads,
    secureCookies: config.cookieSecure,
    proposalTtlSeconds: config.proposalTtlSeconds,
    webhookAllowPrivate: config.webhookAllowPrivate,
  };
}
