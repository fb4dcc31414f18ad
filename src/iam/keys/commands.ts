import { isoTimestamp } from '../../clock';
import { creationData, type CommandContext } from '../../commands/context';
import { moduleCommands } from '../../commands/module-commands';
import { eventCatalog } from '../../events/catalog';
import { clmStreams, type ClmEventOf } from '../../events/clm';
import { keyDecider } from './decider';
import { iamStreams, keyEvents, keyPerson, type KeyEventOf } from './events';
import { newKeyId, newToken, tokenHasher } from './tokens';

const { run } = moduleCommands(eventCatalog(keyEvents));

export type KeyRequest = Omit<KeyEventOf<'KeyIssued'>['data'], 'id' | 'token_hmac' | 'expires_at'> & {
  /** Seconds from now; `null`: the key does not expire. */
  expiresIn: number | null;
};

export type IssuedKey = Omit<KeyEventOf<'KeyIssued'>['data'], 'token_hmac'> & {
  person: string;
  token: string;
};

/** Issues a key under a new id; the answer holds its token, which nothing keeps. */
export async function issueKey(
  context: CommandContext,
  request: KeyRequest,
  serverSecret: string,
): Promise<IssuedKey> {
  const { expiresIn, ...key } = request;
  const id = newKeyId();
  const token = newToken(id);
  const now = context.clock.now();
  const expires_at = expiresIn === null ? null : isoTimestamp(new Date(now.getTime() + expiresIn * 1000));
  const member =
    key.member === null
      ? undefined
      : await creationData<ClmEventOf<'MemberAdded'>['data']>(context, clmStreams.member(key.member));
  const issued = { id, ...key, person: keyPerson({ id, ...key }), expires_at };
  await run(context, iamStreams.key(id), keyDecider, {
    type: 'IssueKey',
    key: { ...issued, token_hmac: tokenHasher(serverSecret)(token) },
    memberWorkspace: member?.workspace_id,
  });
  return { ...issued, token };
}

export function revokeKey(context: CommandContext, id: string) {
  return run(context, iamStreams.key(id), keyDecider, { type: 'RevokeKey', id });
}

export function expireKey(context: CommandContext, id: string) {
  return run(context, iamStreams.key(id), keyDecider, { type: 'ExpireKey', id, at: context.clock.now() });
}
