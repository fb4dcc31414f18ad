import { spawnSync } from 'node:child_process';
import { userInfo } from 'node:os';
import { tempDir } from '../support/temp-dir';
import { SUITE_CLI } from '../support/built-suite';

jest.setTimeout(120_000);

function cli(dir: string, args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [SUITE_CLI, 'webhooks', ...args, '--data-dir', dir], {
    env: { ...process.env, SUITE_LOG_LEVEL: 'warn', SUITE_SEED: 'none', ...env },
    encoding: 'utf8',
  });
}

describe('`suite webhooks`', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('registers a webhook, shows its secret once, lists, reads and deletes it', () => {
    const created = cli(dir, [
      'create',
      '--module',
      'esm',
      '--url',
      'https://93.184.215.14/hooks',
      '--resource',
      'requests',
    ]);
    expect(created).toMatchObject({ status: 0, stderr: '' });
    const webhook = JSON.parse(created.stdout);
    expect(webhook).toMatchObject({
      module: 'esm',
      url: 'https://93.184.215.14/hooks',
      resource: 'requests',
      status: 'active',
      created_by: `os:${userInfo().username}`,
    });
    expect(webhook.secret).toMatch(/^whsec_/);

    const listed = cli(dir, ['list', '--json']);
    expect(listed.status).toBe(0);
    const { secret, ...shown } = webhook;
    expect(JSON.parse(listed.stdout)).toEqual([shown]);
    expect(listed.stdout).not.toContain(secret);
    expect(cli(dir, ['list']).stdout).toMatch(
      new RegExp(`${webhook.id}\\s+esm\\s+requests\\s+https://93.184.215.14/hooks\\s+active`),
    );

    const read = cli(dir, ['get', webhook.id]);
    expect(JSON.parse(read.stdout)).toEqual(shown);

    expect(cli(dir, ['delete', webhook.id])).toMatchObject({
      status: 0,
      stdout: `Webhook ${webhook.id} deleted.\n`,
    });
    expect(cli(dir, ['get', webhook.id])).toMatchObject({ status: 1, stderr: `No webhook ${webhook.id}\n` });
    expect(cli(dir, ['list']).stdout).toBe('0 webhook(s)\n');
  });

  it('refuses a loopback target unless SUITE_WEBHOOK_ALLOW_PRIVATE=true, an unknown resource and module', () => {
    const loopback = cli(dir, ['create', '--module', 'esm', '--url', 'http://127.0.0.1:8080/hooks']);
    expect(loopback.status).toBe(1);
    expect(loopback.stderr).toMatch(/^url: its host resolves to 127\.0\.0\.1, a private or loopback address/);
    const allowed = cli(dir, ['create', '--module', 'esm', '--url', 'http://127.0.0.1:8080/hooks'], {
      SUITE_WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    expect(allowed.status).toBe(0);

    const resource = cli(dir, [
      'create',
      '--module',
      'esm',
      '--url',
      'https://93.184.215.14/',
      '--resource',
      'x',
    ]);
    expect(resource).toMatchObject({ status: 1 });
    expect(resource.stderr).toMatch(/^resource: esm has no resource x; it has services, requests/);
    const module = cli(dir, ['create', '--module', 'nope', '--url', 'https://93.184.215.14/']);
    expect(module.status).toBe(1);
    expect(module.stderr).toMatch(/the modules are: esm, clm/);
  });
});
