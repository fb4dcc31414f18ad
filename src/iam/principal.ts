import { DomainError } from '../commands/errors';
import { MODULE_IDS, type ModuleId } from '../modules/ids';

/**
 * Who is calling: a person or a system, as one of the suite's credentials names them. Every event a
 * principal causes names it (`actor`, and `actor_name` when it has one).
 */
export interface Principal {
  /** Recorded as `actor`: `key:<id>`, `oidc:<sub>`, `token:admin`, `token:auditor`. */
  id: string;
  kind: 'bootstrap' | 'key' | 'oidc';
  /** Recorded as `actor_name`: an API key's name, a token's `name` or `email` claim. */
  name?: string;
  roles: readonly Role[];
  /**
   * The person the credential stands for (recorded as `person`): every credential of one person is the
   * same person to four eyes. A key's `--person` (by default its member, else the key itself), an
   * identity provider's `sub` (or `SUITE_OIDC_PERSON_CLAIM`), `admin` and `auditor` for the bootstrap
   * tokens. `hrm.employee-<id>` links the person to that employee.
   */
  person: string;
  /** The e-mail address an identity provider's token names: it links the person to the employee of that company e-mail. */
  email?: string;
  /** A key bound to one member of one contract workspace acts only as that member, there. */
  member?: string;
  workspace?: string;
}

/**
 * `admin` (every module's reads and writes, keys, policies and erasure, not the audit API), `auditor`
 * (the audit API), and per module `<module>:writer`, `<module>:approver` and `<module>:reader`.
 */
export type Role = 'admin' | 'auditor' | `${ModuleId}:${'writer' | 'approver' | 'reader'}`;

/** Every role there is: roles exist for every module, even where a module has no write today. */
export const ROLES: readonly Role[] = [
  'admin',
  'auditor',
  ...MODULE_IDS.flatMap((module) =>
    (['writer', 'approver', 'reader'] as const).map((duty) => `${module}:${duty}` as const),
  ),
];

/** 1 to 200 characters, none of them control, format or line-separating characters, not all blank. */
export const PERSON = /^(?=.*\S)[^\p{C}\p{Zl}\p{Zp}]{1,200}$/u;

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/**
 * Names the principal a bearer token stands for, `null` when the token is not of this authenticator's
 * kind (another one may know it), or throws the `unauthorized` `DomainError` when it is of its kind but
 * not valid (unknown, revoked, expired, badly signed).
 */
export type Authenticator = (token: string) => Promise<Principal | null>;

/** No credential, or one that names no principal. */
export const unauthorized = () => new DomainError('unauthorized', 'A valid bearer token is required');
