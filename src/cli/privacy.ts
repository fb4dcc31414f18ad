import { InvalidArgumentError, type Command } from 'commander';
import { startProjecting } from '../main';
import { eraseSubject, erasureDone, followedElsewhere } from '../privacy/erase';
import { MAX_REASON, SUBJECT } from '../privacy/erasures';
import { dataDirOption, operatorContext, withStores } from './common';
import { escaped } from './terminal';

/** How long `suite erase` waits for the process that projects to fold the read models again. */
const ERASURE_WAIT_MS = 60_000;

function subject(value: string): string {
  if (!SUBJECT.test(value)) {
    throw new InvalidArgumentError(
      'a data subject is the stream of a person: hrm.employee-42, crm.contact-3',
    );
  }
  return value;
}

function reason(value: string): string {
  if (value.trim() === '' || value.length > MAX_REASON) {
    throw new InvalidArgumentError(`say why, in 1 to ${MAX_REASON} characters`);
  }
  return value;
}

/** `suite erase SUBJECT --reason TEXT`. */
export function addErasureCommand(program: Command): void {
  program
    .command('erase')
    .description(
      "erase a data subject's personal data (GDPR Art. 17): its key is deleted, the log keeps its proofs; answers once no read model holds it (folded again by the running suite, or here when none runs)",
    )
    .argument('<subject>', 'the data subject, as docs/PERSONAL-DATA.md names them: hrm.employee-42', subject)
    .requiredOption('--reason <text>', 'why, for the record (no personal data)', reason)
    .addOption(dataDirOption())
    .action((erased: string, options: { reason: string; dataDir?: string }) =>
      withStores(options, async (suite) => {
        // A suite that projects does the erasure's work; when none runs, this process does it.
        if (!(await followedElsewhere(suite.readStore))) await startProjecting(suite);
        const { id, position } = await eraseSubject(
          operatorContext(suite),
          suite.subjectKeys,
          erased,
          options.reason,
        );
        if (!(await erasureDone(suite.readStore, position, ERASURE_WAIT_MS))) {
          console.error(
            escaped`${erased} erased (erasure ${id}), but the read models were not folded again within ` +
              `${ERASURE_WAIT_MS / 1000} s: the suite that projects does it when it runs again.`,
          );
          process.exitCode = 1;
          return;
        }
        console.log(escaped`${erased} erased (erasure ${id}).`);
      }),
    );
}
