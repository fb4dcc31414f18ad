import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { requestJson } from '../api/client';
import { useModuleRequest } from '../api/module-request';
import { useOpenApi } from '../api/modules';
import { resourceLabel } from '../api/names';
import { onRecord, tablesOf, writesOf } from '../api/openapi';
import { holds, mayMake } from '../api/principal';
import { subjectOfRecord } from '../api/erasures';
import { fieldLabel } from '../api/field-text';
import { recordName, recordTitle } from '../api/record-title';
import { usePrincipal, useSession } from '../api/session';
import { useModuleParams } from '../api/use-module';
import { EraseRecordButton } from '../components/EraseRecordButton';
import { ErrorNotice } from '../components/ErrorNotice';
import { HistoryOnlyNotice, missingRole } from '../components/HistoryOnlyNotice';
import { HistoryTimeline, type HistoryStep } from '../components/HistoryTimeline';
import { Loading } from '../components/Loading';
import { NestedRecords, holdsRecords } from '../components/NestedRecords';
import { PageTitle } from '../components/PageTitle';
import { ActivityTimeline, activityPathOf } from '../components/ActivityTimeline';
import { RecordActions } from '../components/RecordActions';
import { ValueOrReference } from '../components/RecordTable';
import { useReferences } from '../api/references';

function History({ module, resource, id }: { module: string; resource: string; id: string }) {
  const { auditUrl, token } = useSession();
  const history = useQuery({
    queryKey: ['audit', 'history', module, resource, id],
    queryFn: () =>
      requestJson<{ data: { events: HistoryStep[] } }>(
        `${auditUrl}/api/v1/history/${module}/${resource}/${encodeURIComponent(id)}`,
        { token },
      ),
  });
  if (history.isPending) return <Loading label="Loading history" />;
  if (history.isError) return <ErrorNotice error={history.error} title="The history could not be read" />;
  return <HistoryTimeline steps={history.data.data.events} />;
}

export default function RecordPage() {
  const { module, resource = '', id = '' } = useModuleParams();
  const moduleId = module?.id ?? '';
  const principal = usePrincipal();
  const api = useOpenApi(moduleId);
  const table = api.data && tablesOf(api.data).find((candidate) => candidate.name === resource);
  const call = useModuleRequest(moduleId);
  const record = useQuery({
    queryKey: ['module', moduleId, 'record', resource, id],
    queryFn: () =>
      call<Record<string, unknown>>((table?.itemPath ?? '').replace(/\{[^}]+\}/, encodeURIComponent(id))),
    enabled: table?.itemPath !== undefined,
  });
  const fields = record.data ? Object.keys(record.data) : [];
  const referenceOf = useReferences(moduleId, api.data, fields, record.data ? [record.data] : []);
  if (!module) return <ErrorNotice error={new Error('No such module')} />;
  if (api.isPending) return <Loading />;
  if (api.isError) return <ErrorNotice error={api.error} />;
  if (!table?.itemPath)
    return <ErrorNotice error={new Error(`${module.title} has no record page for ${resource}`)} />;
  const auditor = holds(principal, 'auditor');
  // An auditor without the module's reader role reads the record's history, not the record.
  const historyOnly = auditor ? missingRole(record.error) : undefined;
  const actions = writesOf(api.data, table).filter((write) => onRecord(write) && mayMake(principal, write));
  // Administrators erase a person from their own record, named as the page shows them.
  const subject = holds(principal, 'admin') ? subjectOfRecord(module.id, resource, id) : undefined;
  const activity = activityPathOf(api.data, table.itemPath);
  return (
    <>
      <PageTitle
        title={recordTitle(resource, id, record.data)}
        trail={[
          { label: module.title, to: `/m/${module.id}` },
          { label: resourceLabel(resource), to: `/m/${module.id}/${resource}` },
        ]}
      />
      {record.data && (
        <RecordActions
          api={api.data}
          table={table}
          target={{ module: module.id, resource, id, record: record.data }}
        />
      )}
      {(actions.length > 0 || subject) && (
        <Group mb="md" align="flex-start">
          {actions.map((write) => (
            <Button
              key={write.key}
              component={Link}
              variant="default"
              to={`/m/${module.id}/${resource}/write?op=${encodeURIComponent(write.key)}&id=${encodeURIComponent(id)}`}
            >
              {write.operation.summary ?? write.key}
            </Button>
          ))}
          {subject && (
            <EraseRecordButton subject={subject} name={record.data ? recordName(record.data) : undefined} />
          )}
        </Group>
      )}
      {historyOnly ? (
        <HistoryOnlyNotice module={module.shortTitle} role={historyOnly} />
      ) : (
        <ErrorNotice error={record.error} />
      )}
      {record.isPending ? (
        <Loading />
      ) : (
        record.data && (
          <>
            <Paper withBorder p="lg" mb="xl">
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" component="dl" m={0}>
                {Object.entries(record.data)
                  .filter(([, value]) => !holdsRecords(value))
                  .map(([name]) => (
                    <div key={name}>
                      <Text component="dt" size="xs" c="dimmed" fw={600}>
                        {fieldLabel(name)}
                      </Text>
                      <Text component="dd" m={0} data-field={name}>
                        <ValueOrReference name={name} row={record.data} referenceOf={referenceOf} />
                      </Text>
                    </div>
                  ))}
              </SimpleGrid>
            </Paper>
            {Object.entries(record.data).map(
              ([name, value]) => holdsRecords(value) && <NestedRecords key={name} name={name} rows={value} />,
            )}
          </>
        )
      )}
      {(activity || auditor) && (
        <Stack component="section" aria-label="Activity">
          <Title order={2} size="h3">
            Activity
          </Title>
          {activity && <ActivityTimeline module={module.id} path={activity} id={id} />}
          {auditor && (
            <>
              <Title order={3} size="h4">
                History in the log
              </Title>
              <History module={module.id} resource={resource} id={id} />
            </>
          )}
        </Stack>
      )}
    </>
  );
}
