import { Command } from 'commander';
import { withLogFilters } from '../../src/cli/log';

describe('the log filters of suite events, audit log and audit export', () => {
  it('take modules, streams and types as lists, comma-separated, repeated or both', () => {
    const command = withLogFilters(new Command('events')).exitOverride();
    command.parse(
      ['--module', 'esm,crm', '--module', 'hrm', '--type', 'RequestSubmitted', '--stream', ' a-1 ,'],
      {
        from: 'user',
      },
    );
    expect(command.opts()).toMatchObject({
      module: ['esm', 'crm', 'hrm'],
      type: ['RequestSubmitted'],
      stream: ['a-1'],
      after: 0,
    });
  });
});
