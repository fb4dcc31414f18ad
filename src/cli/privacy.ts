import { InvalidArgumentError, type Command } from 'commander';
import { eraseSubject } from '../privacy/erase';
import { MAX_REASON, SUBJECT } from '../privacy/erasures';
import { dataDirOption, operatorContext, withStores } from './common';
import { escaped } from './terminal';

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
      "erase a data subject's personal data (GDPR Art. 17): its key is deleted, the log keeps its proofs; a running suite follows within a second",
    )
    .argument('<subject>', 'the data subject, as docs/PERSONAL-DATA.md names them: hrm.employee-42', subject)
    .requiredOption('--reason <text>', 'why, for the record (no personal data)', reason)
    .addOption(dataDirOption())
    .action((erased: string, options: { reason: string; dataDir?: string }) =>
      withStores(options, async (suite) => {
        const { id } = await eraseSubject(operatorContext(suite), suite.subjectKeys, erased, options.reason);
        console.log(escaped`${erased} erased (erasure ${id}).`);
      }),
    );
}
