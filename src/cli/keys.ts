import { InvalidArgumentError, type Command } from 'commander';
import { resolveSessionSecret } from '../api/kit/session-secret';
import { KEY_ID, KEY_NAME, hasExpired, issueKey, keysInLog, revokeKey, type KeyRecord } from '../iam';
import { durationSeconds } from '../duration';
import { PERSON, ROLES, isRole, type Role } from '../iam/principal';
import { alignedColumns, dataDirOption, operatorContext, withStores } from './common';
import { jsonText, escaped } from './terminal';

/** Ten years at most: a key meant to outlive that is one that never expires (omit --expires-in). */
const MAX_LIFETIME_SECONDS = 3_650 * 86_400;

function keyName(value: string): string {
  if (!KEY_NAME.test(value)) throw new InvalidArgumentError('use 1 to 100 visible characters');
  return value;
}

function person(value: string): string {
  if (!PERSON.test(value)) throw new InvalidArgumentError('use 1 to 200 visible characters');
  return value;
}

function role(value: string, previous: Role[] = []): Role[] {
  if (!isRole(value)) throw new InvalidArgumentError(`the roles are: ${ROLES.join(', ')}`);
  return previous.includes(value) ? previous : [...previous, value];
}

/** `90d`, `12h`, `30m`, in seconds. */
function lifetime(value: string): number {
  const seconds = durationSeconds(value);
  if (seconds === undefined || seconds > MAX_LIFETIME_SECONDS) {
    throw new InvalidArgumentError(
      'use a whole number of days, hours or minutes (90d, 12h, 30m), at most 3650d',
    );
  }
  return seconds;
}

/** A record as shown: without its HMAC, and expired once past its expiry, recorded or not yet. */
function shown({ token_hmac: _hmac, ...key }: KeyRecord, now: Date) {
  const expired = key.status === 'active' && hasExpired(key.expires_at, now);
  return { ...key, status: expired ? 'expired' : key.status };
}

function table(keys: readonly ReturnType<typeof shown>[]): string[] {
  const rows = [
    ['ID', 'NAME', 'PERSON', 'ROLES', 'MEMBER/WORKSPACE', 'STATUS', 'CREATED', 'EXPIRES'],
    ...keys.map((key) => [
      key.id,
      key.name,
      key.person,
      key.roles.join(','),
      key.member === null ? '-' : `${key.member}/${key.workspace}`,
      key.status,
      key.created_at,
      key.expires_at ?? 'never',
    ]),
  ];
  return alignedColumns(rows);
}

/** `suite keys create`, `suite keys list` and `suite keys revoke`. */
export function addKeyCommands(program: Command): void {
  const keys = program
    .command('keys')
    .description(
      'API keys: run with the data directory and SUITE_SESSION_SECRET of the suite, whose secret keys their hashes',
    );

  keys
    .command('create')
    .description('issue an API key and print it as one JSON object; its token is shown only here')
    .addOption(dataDirOption())
    .requiredOption(
      '--name <name>',
      'what the key is for (1 to 100 characters), recorded with its events',
      keyName,
    )
    .requiredOption('--role <role>', 'a role it holds (repeat for more)', role)
    .option('--member <id>', 'bind it to this contract workspace member (with --workspace and a clm: role)')
    .option('--workspace <id>', 'the workspace of --member')
    .option(
      '--person <id>',
      'the person it is issued to (default: its --member, else the key itself); four eyes compare persons; hrm.employee-<id> links the person to that employee',
      person,
    )
    .option('--expires-in <duration>', 'lifetime: 90d, 12h, 30m (default: never expires)', lifetime)
    .action(
      async (
        options: {
          dataDir?: string;
          name: string;
          role: Role[];
          member?: string;
          workspace?: string;
          person?: string;
          expiresIn?: number;
        },
        command: Command,
      ) => {
        if ((options.member === undefined) !== (options.workspace === undefined)) {
          command.error('error: --member and --workspace go together');
        }
        await withStores(options, async (suite) => {
          const key = await issueKey(
            operatorContext(suite),
            {
              name: options.name,
              roles: options.role,
              member: options.member ?? null,
              workspace: options.workspace ?? null,
              ...(options.person !== undefined && { person: options.person }),
              expiresIn: options.expiresIn ?? null,
            },
            resolveSessionSecret(suite.config),
          );
          const { id, name, roles, member, workspace, person, expires_at, token } = key;
          console.log(jsonText({ id, name, roles, member, workspace, person, expires_at, token }));
        });
      },
    );

  keys
    .command('list')
    .description('list the keys (never their tokens), as the log records them')
    .addOption(dataDirOption())
    .option('--json', 'print them as a JSON array')
    .action(async (options: { dataDir?: string; json?: boolean }) => {
      await withStores(options, async (suite) => {
        const now = suite.clock.now();
        const listed = (await keysInLog(suite.eventStore)).map((key) => shown(key, now));
        if (options.json) console.log(jsonText(listed, 2));
        else {
          if (listed.length > 0) for (const line of table(listed)) console.log(line);
          console.log(`${listed.length} key(s)`);
        }
      });
    });

  keys
    .command('revoke')
    .description('revoke a key: a running suite refuses it within a second')
    .argument('<id>', 'the key id (key_...)')
    .addOption(dataDirOption())
    .action(async (id: string, options: { dataDir?: string }) => {
      if (!KEY_ID.test(id)) {
        console.error(escaped`No key ${id}: key ids are key_ and 16 lowercase letters or digits`);
        process.exitCode = 1;
        return;
      }
      await withStores(options, async (suite) => {
        const { outcome } = await revokeKey(operatorContext(suite), id);
        if (outcome.events.length > 0) console.log(`Key ${id} revoked.`);
        else {
          const ended =
            outcome.history[outcome.history.length - 1]?.type === 'KeyExpired' ? 'expired' : 'revoked';
          console.log(`Key ${id} was already ${ended}; nothing changed.`);
        }
      });
    });
}
