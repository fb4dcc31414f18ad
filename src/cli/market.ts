import { readFileSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { resolveSessionSecret } from '../api/kit/session-secret';
import { isoTimestamp } from '../clock';
import { importFormat, importObservations } from '../market/import';
import { startSession } from '../commands/market/handlers';
import {
  DEFAULT_SESSION_SECONDS,
  MAX_SESSION_SECONDS,
  USER_ID,
  newSessionId,
  signSession,
} from '../market/session';
import { config, dataDirOption, operatorContext, quietSuite } from './common';
import { escaped } from './terminal';

function seconds(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < 60 || parsed > MAX_SESSION_SECONDS) {
    throw new InvalidArgumentError(`must be a whole number of seconds from 60 to ${MAX_SESSION_SECONDS}`);
  }
  return parsed;
}

function userId(value: string): string {
  if (!USER_ID.test(value))
    throw new InvalidArgumentError('use 1 to 64 letters, digits, dots, dashes, underscores or @');
  return value;
}

/** `suite session mint` and `suite market import`. */
export function addMarketCommands(program: Command): void {
  program
    .command('session')
    .description('market sessions')
    .command('mint')
    .description('print a signed svc_session cookie value for a user (the same secret the server uses)')
    .addOption(dataDirOption())
    .requiredOption('--user <id>', 'user id', userId)
    .option(
      '--ttl <seconds>',
      `lifetime (default ${DEFAULT_SESSION_SECONDS})`,
      seconds,
      DEFAULT_SESSION_SECONDS,
    )
    .action(async (options: { dataDir?: string; user: string; ttl: number }) => {
      const settings = config(options);
      const suite = await quietSuite(settings);
      try {
        const expires = new Date(Math.floor(Date.now() / 1000) * 1000 + options.ttl * 1000);
        const session = {
          session_id: newSessionId(),
          user_id: options.user,
          expires_at: isoTimestamp(expires),
        };
        // Minting is recorded as signing in is, with the operator as actor (never the cookie).
        await startSession(operatorContext(suite), session);
        console.log(signSession(resolveSessionSecret(settings), options.user, expires, session.session_id));
      } finally {
        await suite.close();
      }
    });

  program
    .command('market')
    .description('market price intelligence')
    .command('import')
    .description('import price observations from a CSV or JSON file: all rows or, if one is bad, none')
    .argument('<file>', 'CSV (header row) or JSON (array of objects) with the import columns')
    .addOption(dataDirOption())
    .action(async (file: string, options: { dataDir?: string }) => {
      const text = readFileSync(file, 'utf8');
      const suite = await quietSuite(config(options));
      const context = operatorContext(suite);
      try {
        const result = await importObservations(context, text, importFormat(file, text));
        if (!result.ok) {
          for (const { line, problems } of result.rejected) {
            for (const problem of problems)
              console.error(escaped`${path.basename(file)}:${line}: ${problem.field} ${problem.message}`);
          }
          console.error(`Rejected: ${result.rejected.length} bad row(s); nothing was imported.`);
          process.exitCode = 1;
          return;
        }
        // Projection and the coverage job are the server's (or the projector and worker roles') work:
        // a second projector on the same read models would count the batch twice.
        const batches = result.batches === 1 ? 'one batch' : `${result.batches} batches`;
        console.log(
          `Imported ${result.imported} observations in ${batches}. A running server shows them, with the ` +
            'coverage and price levels, in a moment; a stopped one at its next start.',
        );
      } finally {
        await suite.close();
      }
    });
}
