import {
  Anchor,
  Button,
  Code,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError, requestJson } from '../api/client';
import { moduleHeaders } from '../api/modules';
import type { Page } from '../api/module-request';
import { holds, seesProposals, type Principal } from '../api/principal';
import { usePrincipal, useSession } from '../api/session';
import { ErrorNotice } from '../components/ErrorNotice';
import { FieldValue } from '../components/FieldValue';
import { Loading } from '../components/Loading';
import { PageTitle } from '../components/PageTitle';
import { DANGER } from '../theme';

interface Proposal {
  id: string;
  module: string;
  route: string;
  path: string;
  payload: unknown;
  proposed_by: string;
  /** The person behind the proposing credential (absent from an older suite). */
  proposer_person?: string;
  status: string;
  created_at: string;
  expires_at: string;
  decided_by: string | null;
  reason: string | null;
  error: { code: string; message: string } | null;
}

/**
 * The approver role of a module's policies is not in the proposal: the module's approver, or admin, may
 * try, unless they are the proposer's person (whichever credential either used).
 */
const mayDecide = (principal: Principal, proposal: Proposal) =>
  proposal.status === 'pending' &&
  proposal.proposed_by !== principal.id &&
  (proposal.proposer_person === undefined || proposal.proposer_person !== principal.person) &&
  (holds(principal, `${proposal.module}:approver`) || holds(principal, 'admin'));

function ProposalRows({
  proposals,
  actions,
}: {
  proposals: Proposal[];
  actions?: (proposal: Proposal) => ReactNode;
}) {
  const { settings } = useSession();
  const title = (module: string) =>
    settings.modules.find((candidate) => candidate.id === module)?.shortTitle ?? module;
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table withTableBorder striped verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Module</Table.Th>
            <Table.Th scope="col">Write</Table.Th>
            <Table.Th scope="col">Body</Table.Th>
            <Table.Th scope="col">Proposed by</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            {actions && <Table.Th scope="col">Decision</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {proposals.map((proposal) => (
            <Table.Tr key={proposal.id} data-proposal={proposal.id}>
              <Table.Td>{title(proposal.module)}</Table.Td>
              <Table.Td>
                <Code>
                  {proposal.route.split(' ')[0]} {proposal.path}
                </Code>
                <Text size="xs" c="dimmed">
                  {new Date(proposal.created_at).toLocaleString()}, expires{' '}
                  {new Date(proposal.expires_at).toLocaleString()}
                </Text>
              </Table.Td>
              <Table.Td>
                <Code>{JSON.stringify(proposal.payload)}</Code>
              </Table.Td>
              <Table.Td>{proposal.proposed_by}</Table.Td>
              <Table.Td>
                <FieldValue name="status" value={proposal.status} />
                {proposal.reason && <Text size="xs">Reason: {proposal.reason}</Text>}
                {proposal.error && (
                  <Text size="xs" c="red">
                    {proposal.error.message}
                  </Text>
                )}
              </Table.Td>
              {actions && <Table.Td>{actions(proposal)}</Table.Td>}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export default function ApprovalsPage() {
  const principal = usePrincipal();
  const { settings, moduleUrl, token } = useSession();
  const queryClient = useQueryClient();
  const [rejecting, setRejecting] = useState<Proposal>();
  const modules = settings.modules.filter((module) => seesProposals(principal, module.id));
  const lists = useQueries({
    queries: modules.map((module) => ({
      queryKey: ['module', module.id, 'proposals'],
      queryFn: () =>
        requestJson<Page<Proposal>>(`${moduleUrl(module.id)}/api/v1/proposals`, {
          token,
          headers: moduleHeaders(module.id),
        }),
    })),
  });
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

  const all = lists.flatMap((list) => list.data?.data ?? []);
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
            <ProposalRows
              proposals={toDecide}
              actions={(proposal) => (
                <Group gap="xs" wrap="nowrap">
                  <Button
                    size="xs"
                    loading={decide.isPending && decide.variables?.proposal.id === proposal.id}
                    onClick={() => decide.mutate({ proposal, decision: 'approve' })}
                  >
                    Approve
                  </Button>
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() => {
                      reasonForm.reset();
                      setRejecting(proposal);
                    }}
                  >
                    Reject
                  </Button>
                </Group>
              )}
            />
          )}
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h3" mb="sm">
            Proposed by you
          </Title>
          {mine.length === 0 ? (
            <Text c="dimmed">You have proposed nothing.</Text>
          ) : (
            <ProposalRows proposals={mine} />
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
