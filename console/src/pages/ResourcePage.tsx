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
  writesOf,
  type OpenApi,
} from '../api/openapi';
import { useModuleParams } from '../api/use-module';
import { ErrorNotice } from '../components/ErrorNotice';
import { FieldValue, fieldLabel } from '../components/FieldValue';
import { Loading } from '../components/Loading';
import { ModuleHeaders } from '../components/ModuleHeaders';
import { PageTitle } from '../components/PageTitle';
import { ParameterInput } from '../components/ParameterInput';

const PAGE_SIZE = 25;
const MAX_COLUMNS = 7;

/** The columns a table shows: the record's first plain fields and its status (nested ones are on its page). */
function columnsOf(api: OpenApi, resource: string): string[] {
  const properties = recordSchema(api, resource).properties ?? {};
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
  const call = useModuleRequest(moduleId);
  const [search, setSearch] = useSearchParams();
  const [draft, setDraft] = useState(() => Object.fromEntries(search.entries()));
  const page = Number(search.get('page') ?? '1');
  const filters = [...search.entries()].filter(([name, value]) => name !== 'page' && value !== '');
  const query = new URLSearchParams([
    ...filters,
    ['limit', String(PAGE_SIZE)],
    ['offset', String((page - 1) * PAGE_SIZE)],
  ]);
  const list = useQuery({
    queryKey: ['module', moduleId, 'list', resource, query.toString()],
    queryFn: () => call<Page>(`/api/v1/${resource}?${query.toString()}`),
    placeholderData: keepPreviousData,
    enabled: module !== undefined,
  });

  if (!module) return <ErrorNotice error={new Error('No such module')} />;
  if (api.isPending) return <Loading />;
  if (api.isError) return <ErrorNotice error={api.error} />;
  const parameters = listParameters(api.data, resource);
  const columns = columnsOf(api.data, resource);
  const creates = writesOf(api.data, resource).filter((write) => !onRecord(write, resource));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setSearch(Object.entries(draft).filter(([name, value]) => name !== 'page' && value !== ''));
  };
  const total = list.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

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
      {list.isPending ? (
        <Loading />
      ) : (
        <>
          <Text size="sm" c="dimmed" mb="xs" aria-live="polite" data-testid="total">
            {total === 1 ? '1 record' : `${total} records`}
            {total > 0 && `, showing ${(page - 1) * PAGE_SIZE + 1}–${Math.min(page * PAGE_SIZE, total)}`}
          </Text>
          <ScrollArea>
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
                        {column === 'id' ? (
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
