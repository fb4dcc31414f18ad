import { createIdentity, type Identity } from '../../src/api/kit/identity';
import type { Principal, Role } from '../../src/iam/principal';

/**
 * An identity of the bootstrap tokens and of API keys made up in the test: `credential(name, roles)`
 * makes a key (its own person) and answers the header that presents it.
 */
export function keyCredentials(apiToken: string, auditToken: string) {
  const principals: Record<string, Principal> = {};
  const identity: Identity = createIdentity({
    apiToken,
    auditToken,
    authenticators: [async (token) => principals[token] ?? null],
  });
  const credential = (name: string, roles: Role[]) => {
    principals[name] = { id: `key:${name}`, kind: 'key', name, roles, person: name };
    return { Authorization: `Bearer ${name}` };
  };
  return { identity, credential };
}
