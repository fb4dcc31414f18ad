import { Alert, Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { request } from '../api/client';
import { DESK, useMyAgent, type Agent } from '../api/desk';
import { moduleHeaders } from '../api/modules';
import { bodySchema, writesOf, type OpenApi, type ResourceTable, type WriteOperation } from '../api/openapi';
import { mayMake } from '../api/principal';
import { actionsOf, type ActionContext, type RecordAction } from '../api/record-actions';
import { usePrincipal, useSession } from '../api/session';
import { ErrorNotice } from './ErrorNotice';
import { ChangesTable } from './ChangesTable';
import {
  bodyOf,
  fieldsOf,
  initialValues,
  SchemaFields,
  showFieldErrors,
  type FormValues,
} from './SchemaForm';

interface Target {
  module: string;
  resource: string;
  id: string;
  record: Record<string, unknown>;
}

/** The record's named actions that are valid next steps, for whoever holds the role of their write. */
export function RecordActions({
  api,
  table,
  target,
}: {
  api: OpenApi;
  table: ResourceTable;
  target: Target;
}) {
  const principal = usePrincipal();
  const { agent } = useMyAgent(target.module === DESK.module);
  // The last step chosen stays while its dialog closes, so that the dialog keeps its name.
  const [chosen, setChosen] = useState<{ action: RecordAction; write: WriteOperation }>();
  const [open, setOpen] = useState(false);
  const writes = new Map(writesOf(api, table).map((write) => [write.key, write]));
  const context: ActionContext = { agentId: agent?.id };
  const offered = actionsOf(target.module, target.resource).flatMap((action) => {
    const write = writes.get(action.write);
    return write && mayMake(principal, write) && action.offered(target.record, context)
      ? [{ action, write }]
      : [];
  });
  if (offered.length === 0) return null;
  return (
    <>
      <Group gap="xs" mb="md" aria-label="Actions">
        {offered.map((step) => (
          <Button
            key={step.action.label}
            onClick={() => {
              setChosen(step);
              setOpen(true);
            }}
          >
            {step.action.label}
          </Button>
        ))}
      </Group>
      <Modal opened={open} onClose={() => setOpen(false)} title={chosen?.action.label}>
        {chosen && open && (
          <ActionForm
            key={chosen.action.label}
            api={api}
            target={target}
            agent={agent}
            {...chosen}
            onDone={() => setOpen(false)}
          />
        )}
      </Modal>
    </>
  );
}

/** The value a change sets, as people know it: the agent assigned by their name. */
const shownAfter = (field: string, value: unknown, agent: Agent | undefined) =>
  field === 'assignee_id' && agent && value === agent.id ? agent.name : value;

/**
 * One action as a form: what it changes shown before and after, the fields it asks for (prefilled
 * with the record's values), and its button. A write held back for approval says so.
 */
function ActionForm({
  api,
  target,
  action,
  write,
  agent,
  onDone,
}: {
  api: OpenApi;
  target: Target;
  action: RecordAction;
  write: WriteOperation;
  agent: Agent | undefined;
  onDone(): void;
}) {
  const { moduleUrl, token } = useSession();
  const queryClient = useQueryClient();
  const idempotencyKey = useMemo(() => crypto.randomUUID(), []);
  const [failure, setFailure] = useState<unknown>();
  const [proposal, setProposal] = useState<string>();
  const fields = fieldsOf(api, bodySchema(api, write)).filter((field) => action.asks.includes(field.name));
  const form = useForm<FormValues>({ initialValues: initialValues(fields, target.record) });
  const fixed = action.sends(target.record, { agentId: agent?.id });
  const changes = Object.entries(fixed).filter(([field]) => field in target.record);

  const submit = form.onSubmit(async (values) => {
    setFailure(undefined);
    try {
      const response = await request(
        `${moduleUrl(target.module)}${write.path.replace(/\{\w+\}/, encodeURIComponent(target.id))}`,
        {
          method: write.method === 'post' ? 'POST' : 'PATCH',
          token,
          body: { ...bodyOf(fields, values), ...fixed },
          headers: { ...moduleHeaders(target.module), 'Idempotency-Key': idempotencyKey },
        },
      );
      await queryClient.invalidateQueries({ queryKey: ['module', target.module] });
      if (response.status === 202) return setProposal(((await response.json()) as { id: string }).id);
      onDone();
    } catch (error) {
      setFailure(error);
      showFieldErrors(error, form, values);
    }
  });

  if (proposal) {
    return (
      <Alert color="yellow" title="Held back for approval" role="status">
        <Stack gap="xs">
          <Text>
            {action.label} waits for a second person to approve it (proposal <code>{proposal}</code>).
          </Text>
          <Anchor component={Link} to="/approvals">
            See your proposals
          </Anchor>
        </Stack>
      </Alert>
    );
  }
  return (
    <form onSubmit={submit} noValidate aria-label={action.label}>
      <Stack>
        <ChangesTable
          changes={changes.map(([field, value]) => ({
            field,
            before: target.record[field],
            after: shownAfter(field, value, agent),
          }))}
          label="The change"
          headings={['Now', 'After']}
        />
        <SchemaFields fields={fields} form={form} />
        <ErrorNotice error={failure} title={`${action.label}: refused`} />
        <Group justify="flex-end">
          <Button variant="subtle" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {action.label}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
