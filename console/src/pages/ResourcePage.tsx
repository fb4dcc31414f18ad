import { Anchor, Button, Group, Pagination, Paper, ScrollArea, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useModuleRequest, type Page } from '../api/module-request';
import { useOpenApi } from '../api/modules';
import {
  contextHeaders,
  listParameters,
  nonNull,
  onRecord,
  recordSchema,
  tablesOf,
  writesOf,
  type OpenApi,
  type ResourceTable,
} from '../api/openapi';
import { fieldLabel } from '../api/field-text';
import { mayMake } from '../api/principal';
import { usePrincipal } from '../api/session';
import { useModuleParams } from '../api/use-module';
import { ErrorNotice } from '../components/ErrorNotice';
import { FieldValue } from '../components/FieldValue';
import { Loading } from '../components/Loading';
import { ModuleHeaders } from '../components/ModuleHeaders';
import { PageTitle } from '../components/PageTitle';
import { ParameterInput } from '../components/ParameterInput';

const PAGE_SIZE = 25;
const MAX_COLUMNS = 7;

/** The columns a table shows: the record's first plain fields and its status (nested ones are on its page). */
function columnsOf(api: OpenApi, table: ResourceTable): string[] {
  const properties = recordSchema(api, table).properties ?? {};
  const plain = Object.entries(properties)
    .filter(([, schema]) => {
      const type = nonNull(api, schema).schema.type;
      return type !== 'object' && type !== 'array';
    })
    .map(([name]) => name);
  const first = plain.filter((name) => name !== 'status').slice(0, MAX_COLUMNS - 1);
  return plain.includes('status') ? [...first, 'status'] : plain.slice(0, MAX_COLUMNS);
}

export default function ResourcePage() {
  const { module, resource = '' } = useModuleParams();
  const moduleId = module?.id ?? '';
  const api = useOpenApi(moduleId);
  const table = api.data && tablesOf(api.data).find((candidate) => candidate.name === resource);
  const principal = usePrincipal();
  const call = useModuleRequest(moduleId);
  const [search, setSearch] = useSearchParams();
  const [draft, setDraft] = useState(() => Object.fromEntries(search.entries()));
  const page = Number(search.get('page') ?? '1');
  const filters = [...search.entries()].filter(([name, value]) => name !== 'page' && value !== '');
  const paging = [
    ['limit', String(PAGE_SIZE)],
    ['offset', String((page - 1) * PAGE_SIZE)],
  ];
  const query = new URLSearchParams([...filters, ...(table?.paged ? paging : [])]);
  const list = useQuery({
    queryKey: ['module', moduleId, 'list', resource, query.toString()],
    queryFn: () => call<Page>(`${table?.listPath}?${query.toString()}`),
    placeholderData: keepPreviousData,
    enabled: table !== undefined,
  });

  if (!module) return <ErrorNotice error={new Error('No such module')} />;
  if (api.isPending) return <Loading />;
  if (api.isError) return <ErrorNotice error={api.error} />;
  if (!table) return <ErrorNotice error={new Error(`${module.title} has no list of ${resource}`)} />;
  const parameters = listParameters(api.data, table);
  const columns = columnsOf(api.data, table);
  const creates = writesOf(api.data, table).filter((write) => !onRecord(write) && mayMake(principal, write));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setSearch(Object.entries(draft).filter(([name, value]) => name !== 'page' && value !== ''));
  };
  const total = list.data?.meta.total ?? 0;
  const shown = list.data?.data.length ?? 0;
  const first = table.paged ? (page - 1) * PAGE_SIZE : 0;
  const pages = table.paged ? Math.max(1, Math.ceil(total / PAGE_SIZE)) : 1;

  return (
    <>
      <PageTitle
        title={fieldLabel(resource)}
        trail={[
          { label: 'Overview', to: '/' },
          { label: module.title, to: `/m/${module.id}` },
        ]}
      />
      <ModuleHeaders module={module.id} headers={contextHeaders(api.data)} />
      {creates.length > 0 && (
        <Group mb="md">
          {creates.map((write) => (
            <Button
              key={write.key}
              component={Link}
              to={`/m/${module.id}/${resource}/write?op=${encodeURIComponent(write.key)}`}
              variant="light"
            >
              {write.operation.summary ?? write.key}
            </Button>
          ))}
        </Group>
      )}
      <Paper
        withBorder
        p="md"
        mb="md"
        component="form"
        onSubmit={apply}
        role="search"
        aria-label={`Filter ${resource}`}
      >
        <Group align="flex-end" gap="sm">
          {parameters.map((parameter) => (
            <ParameterInput
              key={parameter.name}
              parameter={parameter}
              value={draft[parameter.name] ?? ''}
              onChange={(value) => setDraft((current) => ({ ...current, [parameter.name]: value }))}
            />
          ))}
          <Button type="submit">Apply filters</Button>
          <Button
            variant="subtle"
            onClick={() => {
              setDraft({});
              setSearch([]);
            }}
          >
            Clear
          </Button>
        </Group>
      </Paper>
      <ErrorNotice error={list.error} />
      {list.isError ? null : list.isPending ? (
        <Loading />
      ) : (
        <>
          <Text size="sm" c="dimmed" mb="xs" aria-live="polite" data-testid="total">
            {total === 1 ? '1 record' : `${total} records`}
            {shown > 0 && shown < total && `, showing ${first + 1}–${first + shown}`}
          </Text>
          <ScrollArea viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': fieldLabel(resource) }}>
            <Table striped highlightOnHover withTableBorder verticalSpacing="xs">
              <Table.Caption>{fieldLabel(resource)}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  {columns.map((column) => (
                    <Table.Th key={column} scope="col">
                      {fieldLabel(column)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data?.data.map((record) => (
                  <Table.Tr key={String(record.id)}>
                    {columns.map((column) => (
                      <Table.Td key={column}>
                        {column === 'id' && table.itemPath ? (
                          <Anchor
                            component={Link}
                            to={`/m/${module.id}/${resource}/${encodeURIComponent(String(record.id))}`}
                          >
                            {String(record.id)}
                          </Anchor>
                        ) : (
                          <FieldValue name={column} value={record[column]} />
                        )}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
          {pages > 1 && (
            <Pagination
              mt="md"
              total={pages}
              value={page}
              onChange={(next) =>
                setSearch((current) => {
                  current.set('page', String(next));
                  return current;
                })
              }
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
              getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
            />
          )}
        </>
      )}
    </>
  );
}
