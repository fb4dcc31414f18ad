/**
 * Who did something, by name, as people read it: the credential's or user's name recorded with the
 * actor, else what the actor's kind says (a job's name, the bootstrap token's), never a key's id.
 */
export function actorName(actor: string, recordedName?: string): string {
  if (recordedName) return recordedName;
  const [kind, ...rest] = actor.split(':');
  const name = rest.join(':');
  if (kind === 'key') return 'An API key';
  if (kind === 'token') return name === 'admin' ? 'Administrator' : name;
  if (kind === 'worker') return `The suite (${name})`;
  return actor;
}
