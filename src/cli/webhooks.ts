import { InvalidArgumentError, type Command } from 'commander';
import { resolveSessionSecret } from '../api/kit/session-secret';
import { MODULES } from '../api/modules';
import { WEBHOOK_ID, createWebhook, deleteWebhook, webhooksInLog, type WebhookRecord } from '../webhooks';
import { alignedColumns, dataDirOption, operatorContext, withStores } from './common';
import { escaped, jsonText } from './terminal';

const MODULE_IDS = MODULES.map((module) => module.id);

function moduleId(value: string): string {
  if (!MODULE_IDS.includes(value as (typeof MODULE_IDS)[number])) {
    throw new InvalidArgumentError(`the modules are: ${MODULE_IDS.join(', ')}`);
  }
  return value;
}

function table(webhooks: readonly WebhookRecord[]): string[] {
  const rows = [
    ['ID', 'MODULE', 'RESOURCE', 'URL', 'STATUS', 'CREATED', 'DELIVERED UP TO'],
    ...webhooks.map((webhook) => [
      webhook.id,
      webhook.module,
      webhook.resource ?? '*',
      webhook.url,
      webhook.status,
      webhook.created_at,
      webhook.delivered_up_to ?? '-',
    ]),
  ];
  return alignedColumns(rows);
}

/** The webhook of that id, or a refusal printed on stderr. */
async function webhookNamed(
  id: string,
  eventStore: Parameters<typeof webhooksInLog>[0],
): Promise<WebhookRecord | undefined> {
  const found = WEBHOOK_ID.test(id)
    ? (await webhooksInLog(eventStore)).find((webhook) => webhook.id === id)
    : undefined;
  if (!found) {
    console.error(escaped`No webhook ${id}`);
    process.exitCode = 1;
  }
  return found;
}

/** `suite webhooks create`, `list`, `get` and `delete`. */
export function addWebhookCommands(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description(
      'webhooks: run with the data directory and SUITE_SESSION_SECRET of the suite, whose secret seals theirs',
    );

  webhooks
    .command('create')
    .description(
      "register a webhook for a module's changes and print it as JSON; its secret is shown only here",
    )
    .addOption(dataDirOption())
    .requiredOption('--module <id>', 'the module whose changes it is sent', moduleId)
    .requiredOption(
      '--url <url>',
      'where they are posted (http or https; private addresses need SUITE_WEBHOOK_ALLOW_PRIVATE=true)',
    )
    .option('--resource <path>', "only this resource's changes (requests)")
    .option('--description <text>', 'what it is for')
    .action(
      async (options: {
        dataDir?: string;
        module: string;
        url: string;
        resource?: string;
        description?: string;
      }) => {
        await withStores(options, async (suite) => {
          const module = MODULES.find((candidate) => candidate.id === options.module);
          const { id, secret } = await createWebhook(
            operatorContext(suite),
            {
              module: options.module,
              url: options.url,
              resource: options.resource ?? null,
              description: options.description ?? null,
            },
            {
              resources: module?.resources.map((resource) => resource.path) ?? [],
              allowPrivate: suite.config.webhookAllowPrivate,
              serverSecret: resolveSessionSecret(suite.config),
            },
          );
          const created = (await webhooksInLog(suite.eventStore)).find((webhook) => webhook.id === id);
          console.log(jsonText({ ...created, secret }));
        });
      },
    );

  webhooks
    .command('list')
    .description('list the webhooks (never their secrets), as the log records them')
    .addOption(dataDirOption())
    .option('--json', 'print them as a JSON array')
    .action(async (options: { dataDir?: string; json?: boolean }) => {
      await withStores(options, async (suite) => {
        const listed = await webhooksInLog(suite.eventStore);
        if (options.json) console.log(jsonText(listed, 2));
        else {
          if (listed.length > 0) for (const line of table(listed)) console.log(line);
          console.log(`${listed.length} webhook(s)`);
        }
      });
    });

  webhooks
    .command('get')
    .description('print one webhook as JSON (never its secret)')
    .argument('<id>', 'the webhook id (wh_...)')
    .addOption(dataDirOption())
    .action(async (id: string, options: { dataDir?: string }) => {
      await withStores(options, async (suite) => {
        const webhook = await webhookNamed(id, suite.eventStore);
        if (webhook) console.log(jsonText(webhook, 2));
      });
    });

  webhooks
    .command('delete')
    .description('delete a webhook: nothing more is sent to it')
    .argument('<id>', 'the webhook id (wh_...)')
    .addOption(dataDirOption())
    .action(async (id: string, options: { dataDir?: string }) => {
      await withStores(options, async (suite) => {
        if (!(await webhookNamed(id, suite.eventStore))) return;
        await deleteWebhook(operatorContext(suite), id);
        console.log(`Webhook ${id} deleted.`);
      });
    });
}
