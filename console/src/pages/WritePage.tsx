import { Alert, Anchor, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, request } from '../api/client';
import { moduleHeaders, useOpenApi } from '../api/modules';
import { bodySchema, onRecord, tablesOf, writesOf } from '../api/openapi';
import { useSession } from '../api/session';
import { useModuleParams } from '../api/use-module';
import { ErrorNotice } from '../components/ErrorNotice';
import { fieldLabel } from '../api/field-text';
import { Loading } from '../components/Loading';
import { PageTitle } from '../components/PageTitle';
import { bodyOf, fieldsOf, initialValues, SchemaFields, type FormValues } from '../components/SchemaForm';

interface Proposal {
  id: string;
  status: string;
}

/** A write of a module as a form generated from its schema; the API's field errors are shown at the fields. */
export default function WritePage() {
  const { module, resource = '' } = useModuleParams();
  const [search] = useSearchParams();
  const api = useOpenApi(module?.id ?? '');
  if (!module) return <ErrorNotice error={new Error('No such module')} />;
  if (api.isPending) return <Loading />;
  if (api.isError) return <ErrorNotice error={api.error} />;
  const table = tablesOf(api.data).find((candidate) => candidate.name === resource);
  const write = table && writesOf(api.data, table).find((candidate) => candidate.key === search.get('op'));
  if (!table || !write)
    return <ErrorNotice error={new Error(`${module.title} has no such write on ${resource}`)} />;
  const params = (write.operation.parameters ?? []).filter((parameter) => parameter.in === 'path');
  const fields = fieldsOf(api.data, bodySchema(api.data, write));
  return (
    <WriteForm
      key={write.key}
      module={module}
      resource={resource}
      write={write}
      recordId={onRecord(write) ? (search.get('id') ?? '') : undefined}
      params={params.map((parameter) => parameter.name)}
      fields={fields}
    />
  );
}

function WriteForm({
  module,
  resource,
  write,
  recordId,
  params,
  fields,
}: {
  module: { id: string; title: string };
  resource: string;
  write: ReturnType<typeof writesOf>[number];
  recordId: string | undefined;
  params: string[];
  fields: ReturnType<typeof fieldsOf>;
}) {
  const { moduleUrl, token } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<unknown>();
  const [proposal, setProposal] = useState<Proposal>();
  const [pending, setPending] = useState(false);
  const idempotencyKey = useMemo(() => crypto.randomUUID(), []);
  const initialParams = Object.fromEntries(
    params.map((name, index) => [name, index === 0 ? (recordId ?? '') : '']),
  );
  const paramsForm = useForm({ initialValues: initialParams });
  const form = useForm<FormValues>({ initialValues: initialValues(fields) });

  const submit = form.onSubmit(async (values) => {
    setFailure(undefined);
    setPending(true);
    const path = write.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
      encodeURIComponent(paramsForm.values[name] ?? ''),
    );
    try {
      const response = await request(`${moduleUrl(module.id)}${path}`, {
        method: write.method === 'post' ? 'POST' : 'PATCH',
        token,
        body: fields.length > 0 ? bodyOf(fields, values) : undefined,
        headers: { ...moduleHeaders(module.id), 'Idempotency-Key': idempotencyKey },
      });
      const answer = (await response.json()) as Record<string, unknown>;
      await queryClient.invalidateQueries({ queryKey: ['module', module.id] });
      if (response.status === 202) return setProposal(answer as unknown as Proposal);
      const id = answer.id ?? recordId;
      navigate(
        id === undefined
          ? `/m/${module.id}/${resource}`
          : `/m/${module.id}/${resource}/${encodeURIComponent(String(id))}`,
      );
    } catch (error) {
      setFailure(error);
      if (error instanceof ApiError) {
        for (const issue of error.issues) {
          const [where, name] = issue.loc;
          if (where === 'body' && typeof name === 'string' && name in values)
            form.setFieldError(name, issue.msg);
          if (where === 'path' && typeof name === 'string') paramsForm.setFieldError(name, issue.msg);
        }
      }
    } finally {
      setPending(false);
    }
  });

  const trail = [
    { label: module.title, to: `/m/${module.id}` },
    { label: fieldLabel(resource), to: `/m/${module.id}/${resource}` },
    ...(recordId
      ? [{ label: recordId, to: `/m/${module.id}/${resource}/${encodeURIComponent(recordId)}` }]
      : []),
  ];
  return (
    <>
      <PageTitle
        title={write.operation.summary ?? write.key}
        description={<code>{write.key}</code>}
        trail={trail}
      />
      {proposal ? (
        <Alert color="yellow" title="Held back for approval" role="status">
          <Stack gap="xs">
            <Text>
              This write waits for a second person to approve it (proposal <code>{proposal.id}</code>,{' '}
              {proposal.status}).
            </Text>
            <Anchor component={Link} to="/approvals">
              See your proposals
            </Anchor>
          </Stack>
        </Alert>
      ) : (
        <Paper withBorder p="lg" maw={640}>
          <form onSubmit={submit} noValidate aria-label={write.operation.summary ?? write.key}>
            <Stack>
              {params.map((name) => (
                <TextInput key={name} label={fieldLabel(name)} required {...paramsForm.getInputProps(name)} />
              ))}
              <SchemaFields fields={fields} form={form} />
              {failure !== undefined && <ErrorNotice error={failure} title="The write was refused" />}
              <Group>
                <Button type="submit" loading={pending}>
                  {write.method === 'post' ? 'Submit' : 'Save'}
                </Button>
                <Button variant="subtle" onClick={() => navigate(-1)}>
                  Cancel
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      )}
    </>
  );
}
