import { Alert, Anchor, Button, Group, Modal, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError, requestJson } from '../api/client';
import { ageOf, formatMoment } from '../api/dates';
import { fieldLabel } from '../api/field-text';
import { moduleHeaders, useOpenApi } from '../api/modules';
import { useModuleRequest } from '../api/module-request';
import { tablesOf, type OpenApi, type ResourceTable } from '../api/openapi';
import { conflictsOf, mayDecide, proposerOf, useProposals, type Proposal } from '../api/proposals';
import { recordTitle, singular } from '../api/record-title';
import { usePrincipal, useSession } from '../api/session';
import { ErrorNotice } from '../components/ErrorNotice';
import { FieldValue } from '../components/FieldValue';
import { ChangesTable } from '../components/ChangesTable';
import { columnsOf } from '../api/table-columns';
import { Loading } from '../components/Loading';
import { PageTitle } from '../components/PageTitle';
import { DANGER } from '../theme';

/** The record a proposal writes to, as the module's description places its path: table and id. */
function targetOf(
  api: OpenApi,
  proposal: Proposal,
): { table: ResourceTable; id: string | undefined } | undefined {
  const tables = tablesOf(api);
  for (const table of tables) {
    if (table.listPath === proposal.path) return { table, id: undefined };
    const pattern = table.itemPath?.replace(/\{[^}]+\}/, '([^/]+)');
    const match = pattern && new RegExp(`^${pattern}(/.*)?$`).exec(proposal.path);
    if (match?.[1]) return { table, id: decodeURIComponent(match[1]) };
  }
  return undefined;
}

const payloadOf = (proposal: Proposal): Record<string, unknown> =>
  proposal.payload && typeof proposal.payload === 'object' && !Array.isArray(proposal.payload)
    ? (proposal.payload as Record<string, unknown>)
    : {};

/** A proposal's change in a few words: `Status Rejected`. */
const changeText = (proposal: Proposal) =>
  Object.entries(payloadOf(proposal))
    .map(
      ([field, value]) =>
        `${fieldLabel(field)} ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
    )
    .join(', ');

/** The record's fields staff know it by (a leave's employee and dates), beside its change. */
function RecordFacts({
  api,
  module,
  table,
  record,
}: {
  api: OpenApi;
  module: string;
  table: ResourceTable;
  record: Record<string, unknown>;
}) {
  const shown = columnsOf(api, module, table).filter((column) => !['id', 'ref', 'status'].includes(column));
  return (
    <Group gap="lg" component="dl" m={0}>
      {shown.map((column) => (
        <div key={column}>
          <Text component="dt" size="xs" c="dimmed" fw={600}>
            {fieldLabel(column)}
          </Text>
          <Text component="dd" m={0} size="sm">
            <FieldValue
              name={column}
              value={record[`${column.replace(/_id$/, '')}_name`] ?? record[column]}
            />
          </Text>
        </div>
      ))}
    </Group>
  );
}

/**
 * One proposal as an approver weighs it: the record it changes (linked), the change before and after,
 * who proposed it and how long ago, and the other pending proposals on the same record.
 */
function ProposalCard({
  proposal,
  conflicts,
  actions,
}: {
  proposal: Proposal;
  conflicts: Proposal[];
  actions?: ReactNode;
}) {
  const { settings } = useSession();
  const module = settings.modules.find((candidate) => candidate.id === proposal.module);
  const api = useOpenApi(proposal.module);
  const call = useModuleRequest(proposal.module);
  const target = api.data && targetOf(api.data, proposal);
  const itemPath = target?.table.itemPath;
  const id = target?.id;
  // The module names the record and sends it as it stands; an older one is read here.
  const told = proposal.target?.record ?? undefined;
  const record = useQuery({
    queryKey: ['module', proposal.module, 'record', target?.table.name, id],
    queryFn: () =>
      call<Record<string, unknown>>((itemPath ?? '').replace(/\{[^}]+\}/, encodeURIComponent(id ?? ''))),
    enabled: told === undefined && itemPath !== undefined && id !== undefined,
  });
  const current = told ?? record.data;
  const [method = ''] = proposal.route.split(' ');
  const title = target
    ? id === undefined
      ? `New ${singular(target.table.name)}`
      : recordTitle(target.table.name, id, current)
    : `${method} ${proposal.path}`;
  return (
    <Paper
      withBorder
      p="md"
      component="article"
      aria-label={`Proposal: ${title}`}
      data-proposal={proposal.id}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <div>
            <Text size="xs" c="dimmed">
              {module?.shortTitle ?? proposal.module}
            </Text>
            {target && id !== undefined ? (
              <Anchor
                component={Link}
                to={`/m/${proposal.module}/${target.table.name}/${encodeURIComponent(id)}`}
                fw={600}
              >
                {title}
              </Anchor>
            ) : (
              <Text fw={600}>{title}</Text>
            )}
          </div>
          <FieldValue name="status" value={proposal.status} />
        </Group>
        <Text size="sm">
          Proposed by <strong>{proposerOf(proposal)}</strong>{' '}
          <time dateTime={proposal.created_at} title={formatMoment(proposal.created_at)}>
            {ageOf(proposal.created_at)}
          </time>
          {proposal.status === 'pending' && <>, expires {formatMoment(proposal.expires_at)}</>}
        </Text>
        {api.data && target && current && (
          <RecordFacts api={api.data} module={proposal.module} table={target.table} record={current} />
        )}
        <ChangesTable
          changes={
            proposal.preview ??
            Object.entries(payloadOf(proposal)).map(([field, after]) => ({
              field,
              before: current?.[field],
              after,
            }))
          }
          label={`The change to ${title}`}
          headings={['Now', 'After']}
        />
        {conflicts.length > 0 && (
          <Alert color="orange" title="Conflicts with other pending proposals" variant="light">
            {conflicts.map((other) => (
              <Text size="sm" key={other.id}>
                {proposerOf(other)} proposed {changeText(other)} {ageOf(other.created_at)}: deciding one
                leaves the other to apply on what it did.
              </Text>
            ))}
          </Alert>
        )}
        {proposal.reason && <Text size="sm">Reason: {proposal.reason}</Text>}
        {proposal.error && (
          <Text size="sm" c="red.9">
            {proposal.error.message}
          </Text>
        )}
        {actions}
      </Stack>
    </Paper>
  );
}

export default function ApprovalsPage() {
  const principal = usePrincipal();
  const { moduleUrl, token } = useSession();
  const queryClient = useQueryClient();
  const [rejecting, setRejecting] = useState<Proposal>();
  const { modules, lists } = useProposals();
  const decide = useMutation({
    mutationFn: ({
      proposal,
      decision,
      reason,
    }: {
      proposal: Proposal;
      decision: 'approve' | 'reject';
      reason?: string;
    }) =>
      requestJson<Proposal>(`${moduleUrl(proposal.module)}/api/v1/proposals/${proposal.id}/${decision}`, {
        method: 'POST',
        token,
        headers: moduleHeaders(proposal.module),
        body: decision === 'reject' ? { reason } : undefined,
      }),
    onSettled: (_answer, _error, { proposal }) =>
      queryClient.invalidateQueries({ queryKey: ['module', proposal.module] }),
    onSuccess: () => setRejecting(undefined),
  });
  const reasonForm = useForm({
    initialValues: { reason: '' },
    validate: { reason: (value) => (value.trim() === '' ? 'Say why, for the record' : null) },
  });

  // Newest first: what was proposed last is on top.
  const all = lists
    .flatMap((list) => list.data?.data ?? [])
    .sort((a, b) => b.created_at.localeCompare(a.created_at));
  const toDecide = all.filter((proposal) => mayDecide(principal, proposal));
  const mine = all.filter((proposal) => proposal.proposed_by === principal.id);

  return (
    <>
      <PageTitle
        title="Approvals"
        description="Writes held back by an approval policy wait here for a second person's decision."
      />
      {modules.length === 0 && (
        <Text>You hold no writer or approver role, so there are no proposals for you.</Text>
      )}
      {lists.some((list) => list.isPending) && <Loading />}
      {lists.map((list, index) => {
        const module = modules[index];
        if (!list.error || !module) return null;
        // A module that needs more than a bearer credential (a workspace; a session of its own) says so.
        if (list.error instanceof ApiError && (list.error.status === 400 || list.error.status === 401)) {
          return (
            <Text key={module.id} size="sm" c="dimmed" mb="xs">
              {module.shortTitle}: {list.error.message} (set it on the{' '}
              <Anchor component={Link} to={`/m/${module.id}`} underline="always">
                module&apos;s page
              </Anchor>
              ).
            </Text>
          );
        }
        return (
          <ErrorNotice
            key={module.id}
            error={list.error}
            title={`${module.shortTitle}: proposals could not be read`}
          />
        );
      })}
      <ErrorNotice error={decide.error} title="The decision was refused" />
      <Stack gap="xl">
        <Paper withBorder p="md">
          <Title order={2} size="h3" mb="sm">
            Waiting for your decision
          </Title>
          {toDecide.length === 0 ? (
            <Text c="dimmed">Nothing is waiting for you.</Text>
          ) : (
            <Stack gap="md">
              {toDecide.map((proposal) => (
                <ProposalCard
                  key={proposal.id}
                  proposal={proposal}
                  conflicts={conflictsOf(proposal, all)}
                  actions={
                    <Group gap="xs">
                      <Button
                        loading={decide.isPending && decide.variables?.proposal.id === proposal.id}
                        onClick={() => decide.mutate({ proposal, decision: 'approve' })}
                      >
                        Approve
                      </Button>
                      <Button
                        variant="default"
                        onClick={() => {
                          reasonForm.reset();
                          setRejecting(proposal);
                        }}
                      >
                        Reject
                      </Button>
                    </Group>
                  }
                />
              ))}
            </Stack>
          )}
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h3" mb="sm">
            Proposed by you
          </Title>
          {mine.length === 0 ? (
            <Text c="dimmed">You have proposed nothing.</Text>
          ) : (
            <Stack gap="md">
              {mine.map((proposal) => (
                <ProposalCard key={proposal.id} proposal={proposal} conflicts={conflictsOf(proposal, all)} />
              ))}
            </Stack>
          )}
        </Paper>
      </Stack>
      <Modal
        opened={rejecting !== undefined}
        onClose={() => setRejecting(undefined)}
        title="Reject the proposal"
      >
        <form
          noValidate
          onSubmit={reasonForm.onSubmit(({ reason }) => {
            if (rejecting) decide.mutate({ proposal: rejecting, decision: 'reject', reason });
          })}
        >
          <Stack>
            <Textarea
              label="Reason"
              required
              autosize
              minRows={3}
              maxLength={1000}
              {...reasonForm.getInputProps('reason')}
            />
            <Group justify="flex-end">
              <Button variant="subtle" onClick={() => setRejecting(undefined)}>
                Cancel
              </Button>
              <Button type="submit" color={DANGER} loading={decide.isPending}>
                Reject
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
