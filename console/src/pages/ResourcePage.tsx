import { Button, Group, Pagination, Paper, ScrollArea, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DESK } from '../api/desk';
import { useModuleRequest, type Page } from '../api/module-request';
import { useOpenApi } from '../api/modules';
import { resourceLabel } from '../api/names';
import { contextHeaders, listParameters, onRecord, tablesOf, writesOf, type Parameter } from '../api/openapi';
import { mayMake } from '../api/principal';
import { useReferences } from '../api/references';
import { usePrincipal } from '../api/session';
import { columnsOf, newestFirst, sortFieldOf, sortFieldsOf } from '../api/table-columns';
import { useModuleParams } from '../api/use-module';
import { DeskQueues } from '../components/DeskQueues';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { ModuleHeaders } from '../components/ModuleHeaders';
import { PageTitle } from '../components/PageTitle';
import { ParameterInput } from '../components/ParameterInput';
import { RecordTable } from '../components/RecordTable';

const PAGE_SIZE = 25;

/** The list's filters, as the address holds them: applied to the address, so a view can be shared. */
function Filters({ resource, parameters }: { resource: string; parameters: Parameter[] }) {
  const [search, setSearch] = useSearchParams();
  const [draft, setDraft] = useState(() => Object.fromEntries(search.entries()));
  const phone = useMediaQuery('(max-width: 48em)');
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const kept = Object.entries(draft).filter(([name, value]) => name !== 'page' && value !== '');
    const sort = search.get('sort');
    setSearch(sort && !('sort' in draft) ? [...kept, ['sort', sort]] : kept);
  };
  const form = (
    <Paper
      withBorder
      p="md"
      mb="md"
      component="form"
      onSubmit={apply}
      role="search"
      aria-label={`Filter ${resourceLabel(resource).toLowerCase()}`}
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
  );
  // On a phone the filters fold away: the records come first.
  if (!phone) return form;
  const applied = [...search.keys()].filter((name) => !['page', 'sort'].includes(name)).length;
  return (
    <details className="folded-filters">
      <summary>Filters{applied > 0 && ` (${applied})`}</summary>
      {form}
    </details>
  );
}

export default function ResourcePage() {
  const { module, resource = '' } = useModuleParams();
  const moduleId = module?.id ?? '';
  const api = useOpenApi(moduleId);
  const table = api.data && tablesOf(api.data).find((candidate) => candidate.name === resource);
  const sortable = api.data && table ? sortFieldsOf(api.data, table) : [];
  const principal = usePrincipal();
  const call = useModuleRequest(moduleId);
  const [search, setSearch] = useSearchParams();
  const page = Number(search.get('page') ?? '1');
  const sort = search.get('sort') ?? newestFirst(sortable);
  const filters = [...search.entries()].filter(
    ([name, value]) => name !== 'page' && name !== 'sort' && value !== '',
  );
  const paging = [
    ['limit', String(PAGE_SIZE)],
    ['offset', String((page - 1) * PAGE_SIZE)],
  ];
  const query = new URLSearchParams([
    ...filters,
    ...(sort ? [['sort', sort]] : []),
    ...(table?.paged ? paging : []),
  ]);
  const list = useQuery({
    queryKey: ['module', moduleId, 'list', resource, query.toString()],
    queryFn: () => call<Page>(`${table?.listPath}?${query.toString()}`),
    placeholderData: keepPreviousData,
    enabled: table !== undefined,
  });
  const columns = api.data && table ? columnsOf(api.data, moduleId, table) : [];
  const referenceOf = useReferences(moduleId, api.data, columns, list.data?.data ?? []);

  if (!module) return <ErrorNotice error={new Error('No such module')} />;
  if (api.isPending) return <Loading />;
  if (api.isError) return <ErrorNotice error={api.error} />;
  if (!table) return <ErrorNotice error={new Error(`${module.title} has no list of ${resource}`)} />;
  const creates = writesOf(api.data, table).filter((write) => !onRecord(write) && mayMake(principal, write));
  const total = list.data?.meta.total ?? 0;
  const shown = list.data?.data.length ?? 0;
  const first = table.paged ? (page - 1) * PAGE_SIZE : 0;
  const pages = table.paged ? Math.max(1, Math.ceil(total / PAGE_SIZE)) : 1;
  const label = resourceLabel(resource);
  const isDesk = module.id === DESK.module && resource === DESK.resource;

  return (
    <>
      <PageTitle
        title={label}
        trail={[
          { label: 'Overview', to: '/' },
          { label: module.title, to: `/m/${module.id}` },
        ]}
      />
      <ModuleHeaders module={module.id} headers={contextHeaders(api.data)} />
      {isDesk && <DeskQueues sortable={sortable} />}
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
      <Filters key={search.toString()} resource={resource} parameters={listParameters(api.data, table)} />
      <ErrorNotice error={list.error} />
      {list.isError ? null : list.isPending ? (
        <Loading />
      ) : (
        <>
          <Text size="sm" c="dimmed" mb="xs" aria-live="polite" data-testid="total">
            {total === 1 ? '1 record' : `${total} records`}
            {shown > 0 && shown < total && `, showing ${first + 1}–${first + shown}`}
          </Text>
          <ScrollArea viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': label }}>
            <RecordTable
              caption={label}
              columns={columns}
              rows={list.data?.data ?? []}
              recordPath={
                table.itemPath
                  ? (row) => `/m/${module.id}/${resource}/${encodeURIComponent(String(row.id))}`
                  : undefined
              }
              referenceOf={referenceOf}
              sorting={{
                current: sort,
                fieldOf: (column) => sortFieldOf(column, sortable),
                onSort: (next) =>
                  setSearch((current) => {
                    current.set('sort', next);
                    current.delete('page');
                    return current;
                  }),
              }}
            />
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
