import { Alert, Anchor, Button, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { request } from '../api/client';
import { useModuleRequest } from '../api/module-request';
import { moduleHeaders, useOpenApi } from '../api/modules';
import { resourceLabel } from '../api/names';
import {
  bodySchema,
  onRecord,
  tablesOf,
  writesOf,
  type OpenApi,
  type ResourceTable,
  type WriteOperation,
} from '../api/openapi';
import { recordTitle } from '../api/record-title';
import { fillsServiceForm, formSchemaOf, useActiveServices } from '../api/service-forms';
import { useSession } from '../api/session';
import { useModuleParams } from '../api/use-module';
import { hasWorkflow, nextStatuses } from '../api/workflows';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { PageTitle } from '../components/PageTitle';
import {
  bodyOf,
  changedFields,
  fieldsOf,
  initialValues,
  SchemaFields,
  showFieldErrors,
  validationOf,
  type FormField,
  type FormValues,
} from '../components/SchemaForm';

interface Proposal {
  id: string;
  status: string;
}

type Module = { id: string; title: string };

/**
 * A write of a module as a form generated from its schema; the API's field errors are shown at the
 * fields. A write on a record names the record (its id is not a field: it is the page's), starts from
 * the record's current values and sends what was changed; a status offers only the moves its
 * workflow allows from the current one.
 */
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
  if (!onRecord(write)) return <WriteForm module={module} resource={resource} api={api.data} write={write} />;
  const recordId = search.get('id') ?? '';
  if (recordId === '')
    return <ErrorNotice error={new Error('Open this write from the page of the record it changes')} />;
  return <RecordWrite module={module} table={table} api={api.data} write={write} recordId={recordId} />;
}

/** A write on one record, once the record is read: its form starts from the record's values. */
function RecordWrite({
  module,
  table,
  api,
  write,
  recordId,
}: {
  module: Module;
  table: ResourceTable;
  api: OpenApi;
  write: WriteOperation;
  recordId: string;
}) {
  const call = useModuleRequest(module.id);
  const record = useQuery({
    queryKey: ['module', module.id, 'record', table.name, recordId],
    queryFn: () =>
      call<Record<string, unknown>>(
        (table.itemPath ?? '').replace(/\{[^}]+\}/, encodeURIComponent(recordId)),
      ),
    enabled: table.itemPath !== undefined,
  });
  if (table.itemPath && record.isPending) return <Loading />;
  return (
    <WriteForm
      module={module}
      resource={table.name}
      api={api}
      write={write}
      recordId={recordId}
      record={record.data}
    />
  );
}

/** The body's fields; a status among the current one and those its workflow allows next. */
function formFields(
  api: OpenApi,
  write: WriteOperation,
  record: Record<string, unknown> | undefined,
): FormField[] {
  const fields = fieldsOf(api, bodySchema(api, write));
  if (!record || !hasWorkflow(record)) return fields;
  const allowed = [record.status, ...nextStatuses(record)];
  return fields.map((field) =>
    field.name === 'status' && field.schema.enum
      ? { ...field, schema: { ...field.schema, enum: field.schema.enum.filter((s) => allowed.includes(s)) } }
      : field,
  );
}

function WriteForm({
  module,
  resource,
  api,
  write,
  recordId,
  record,
}: {
  module: Module;
  resource: string;
  api: OpenApi;
  write: WriteOperation;
  recordId?: string;
  record?: Record<string, unknown>;
}) {
  const { moduleUrl, token } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<unknown>();
  const [proposal, setProposal] = useState<Proposal>();
  const [pending, setPending] = useState(false);
  const idempotencyKey = useMemo(() => crypto.randomUUID(), []);
  const serviceForm = fillsServiceForm(api, write);
  // A service's form replaces the raw `form_data`, and the service is picked by name.
  const fields = formFields(api, write, record).filter(
    (field) => !(serviceForm && ['form_data', 'service_id'].includes(field.name)),
  );
  const [serviceId, setServiceId] = useState('');
  const initial = initialValues(fields, record);
  const form = useForm<FormValues>({ initialValues: initial });
  const services = useActiveServices(module.id, serviceForm);
  const service = services.data?.find((candidate) => String(candidate.id) === serviceId);
  const serviceSchema = formSchemaOf(service);
  const serviceFields = serviceSchema ? fieldsOf(api, serviceSchema) : [];

  const submit = async (values: FormValues, answers: FormValues) => {
    setFailure(undefined);
    setPending(true);
    const path = write.path.replace(/\{\w+\}/, encodeURIComponent(recordId ?? ''));
    const sent = record ? changedFields(fields, initial, values) : fields;
    const body = fields.length > 0 || serviceForm ? bodyOf(sent, values) : undefined;
    if (body && service) body.service_id = service.id;
    if (body && serviceSchema) body.form_data = JSON.stringify(bodyOf(serviceFields, answers));
    try {
      const response = await request(`${moduleUrl(module.id)}${path}`, {
        method: write.method === 'post' ? 'POST' : 'PATCH',
        token,
        body,
        headers: { ...moduleHeaders(module.id), 'Idempotency-Key': idempotencyKey },
      });
      const answer = (await response.json()) as Record<string, unknown>;
      await queryClient.invalidateQueries({ queryKey: ['module', module.id] });
      if (response.status === 202) return setProposal(answer as unknown as Proposal);
      const id = recordId ?? answer.id;
      navigate(
        id === undefined
          ? `/m/${module.id}/${resource}`
          : `/m/${module.id}/${resource}/${encodeURIComponent(String(id))}`,
      );
    } catch (error) {
      setFailure(error);
      showFieldErrors(error, form, values);
    } finally {
      setPending(false);
    }
  };

  const trail = [
    { label: module.title, to: `/m/${module.id}` },
    { label: resourceLabel(resource), to: `/m/${module.id}/${resource}` },
    ...(recordId
      ? [
          {
            label: recordTitle(resource, recordId, record),
            to: `/m/${module.id}/${resource}/${encodeURIComponent(recordId)}`,
          },
        ]
      : []),
  ];
  const title = write.operation.summary ?? write.key;
  return (
    <>
      <PageTitle title={title} description={<code>{write.key}</code>} trail={trail} />
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
          {recordId && (
            <Text mb="md" data-testid="write-target">
              {recordTitle(resource, recordId, record)}
            </Text>
          )}
          <ServiceAnswers
            key={service?.id ?? 'none'}
            fields={serviceFields}
            title={service?.name}
            onSubmit={(answers) => form.onSubmit((values) => void submit(values, answers))()}
            label={title}
          >
            <SchemaFields fields={fields} form={form} />
            {serviceForm && (
              <ServicePicker services={services.data ?? []} value={serviceId} onChange={setServiceId} />
            )}
          </ServiceAnswers>
          {failure !== undefined && <ErrorNotice error={failure} title="The write was refused" />}
          <Group mt="md">
            <Button type="submit" form="write-form" loading={pending}>
              {write.method === 'post' ? 'Submit' : 'Save'}
            </Button>
            <Button variant="subtle" onClick={() => navigate(-1)}>
              Cancel
            </Button>
          </Group>
        </Paper>
      )}
    </>
  );
}

/** The service a request is for, chosen by name among the active ones. */
function ServicePicker({
  services,
  value,
  onChange,
}: {
  services: { id: number; name: string }[];
  value: string;
  onChange(value: string): void;
}) {
  return (
    <NativeSelect
      label="Service"
      description="The request's form is the service's own"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      data={[
        { value: '', label: 'None' },
        ...services.map((service) => ({ value: String(service.id), label: service.name })),
      ]}
    />
  );
}

/**
 * The write's form, with the chosen service's own form after its fields (rendered from the service's
 * `form_schema`, checked here since the service desk stores the answers as given).
 */
function ServiceAnswers({
  fields,
  title,
  onSubmit,
  label,
  children,
}: {
  fields: FormField[];
  title: string | undefined;
  onSubmit(answers: FormValues): void;
  label: string;
  children: ReactNode;
}) {
  const answers = useForm<FormValues>({
    initialValues: initialValues(fields),
    validate: validationOf(fields),
  });
  return (
    <form id="write-form" noValidate aria-label={label} onSubmit={answers.onSubmit(onSubmit)}>
      <Stack>
        {children}
        {fields.length > 0 && (
          <Paper withBorder p="md" component="fieldset">
            <Title order={2} size="h4" component="legend" px={4}>
              {title}
            </Title>
            <SchemaFields fields={fields} form={answers} />
          </Paper>
        )}
      </Stack>
    </form>
  );
}
