import { Button, Code, Group, NativeSelect, Paper, Switch, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { download, evidenceBundle, type LogEvent } from '../../api/audit';
import { requestJson } from '../../api/client';
import { followStream } from '../../api/live-tail';
import { useSession } from '../../api/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageTitle } from '../../components/PageTitle';

const PAGE_SIZE = 50;
/** The live tail keeps the newest events it was sent, up to this many. */
const LIVE_KEPT = 200;

interface Filters {
  module: string;
  type: string;
  actor: string;
  from: string;
  to: string;
}

/** `2026-11-26T09:30` (a datetime-local field, the browser's time zone) as an ISO time. */
const isoOf = (local: string) => (local === '' ? '' : new Date(local).toISOString());

function queryOf(filters: Filters): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    const sent = name === 'from' || name === 'to' ? isoOf(value) : value.trim();
    if (sent !== '') query.set(name, sent);
  }
  return query;
}

function EventRows({ events }: { events: LogEvent[] }) {
  const { auditUrl, token } = useSession();
  const [failure, setFailure] = useState<unknown>();
  const evidence = async (position: number) => {
    setFailure(undefined);
    try {
      download(`evidence-${position}.json`, await evidenceBundle(auditUrl, token, position));
    } catch (error) {
      setFailure(error);
    }
  };
  return (
    <>
      <ErrorNotice error={failure} title="No evidence could be made" />
      <Table.ScrollContainer minWidth={900}>
        <Table striped withTableBorder verticalSpacing="xs" fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Position</Table.Th>
              <Table.Th scope="col">Occurred</Table.Th>
              <Table.Th scope="col">Stream</Table.Th>
              <Table.Th scope="col">Type</Table.Th>
              <Table.Th scope="col">Actor</Table.Th>
              <Table.Th scope="col">Hash</Table.Th>
              <Table.Th scope="col">Evidence</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {events.map((event) => (
              <Table.Tr key={event.position}>
                <Table.Td>{event.position}</Table.Td>
                <Table.Td>{new Date(event.metadata.occurred_at).toLocaleString()}</Table.Td>
                <Table.Td>
                  <Code style={{ whiteSpace: 'nowrap' }}>{event.stream}</Code>
                </Table.Td>
                <Table.Td>{event.type}</Table.Td>
                <Table.Td>{event.metadata.actor_name ?? event.metadata.actor}</Table.Td>
                <Table.Td>
                  <Code title={event.hash}>{event.hash.slice(0, 12)}…</Code>
                </Table.Td>
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="light"
                    onClick={() => void evidence(event.position)}
                    aria-label={`Download evidence for position ${event.position}`}
                  >
                    Download evidence
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}

/** Events as the live tail sends them, newest first, while it is on. */
function LiveTail({ filters }: { filters: Filters }) {
  const { auditUrl, token } = useSession();
  const [events, setEvents] = useState<LogEvent[]>([]);
  const [failure, setFailure] = useState<unknown>();
  useEffect(() => {
    const stop = new AbortController();
    const url = `${auditUrl}/api/v1/events/live?${queryOf(filters).toString()}`;
    followStream(
      url,
      token ?? '',
      (message) => {
        const event = JSON.parse(message.data) as LogEvent;
        setEvents((current) => [event, ...current].slice(0, LIVE_KEPT));
      },
      stop.signal,
    ).catch((error: unknown) => {
      if (!stop.signal.aborted) setFailure(error);
    });
    return () => stop.abort();
  }, [auditUrl, token, filters]);
  return (
    <Paper withBorder p="md" mb="lg">
      <Text fw={600} mb="xs" aria-live="polite">
        Live:{' '}
        {events.length === 0
          ? 'waiting for new events…'
          : `${events.length} new ${events.length === 1 ? 'event' : 'events'}`}
      </Text>
      <ErrorNotice error={failure} title="The live tail stopped" />
      {events.length > 0 && <EventRows events={events} />}
    </Paper>
  );
}

export default function AuditLogPage() {
  const { auditUrl, token, settings } = useSession();
  const [filters, setFilters] = useState<Filters>({ module: '', type: '', actor: '', from: '', to: '' });
  const [after, setAfter] = useState<number[]>([0]);
  const [live, setLive] = useState(false);
  const form = useForm<Filters>({ initialValues: filters });
  const cursor = after[after.length - 1] ?? 0;
  const page = useQuery({
    queryKey: ['audit', 'events', filters, cursor],
    queryFn: () => {
      const query = queryOf(filters);
      query.set('after', String(cursor));
      query.set('limit', String(PAGE_SIZE));
      return requestJson<{ data: LogEvent[]; meta: { next_after: number | null; head_position: number } }>(
        `${auditUrl}/api/v1/events?${query.toString()}`,
        { token },
      );
    },
    placeholderData: keepPreviousData,
  });

  return (
    <>
      <PageTitle
        title="Event log"
        description="Every event the suite recorded, in log order, with who caused it."
      />
      <Paper withBorder p="md" mb="md">
        <form
          role="search"
          aria-label="Filter the log"
          onSubmit={form.onSubmit((values) => {
            setFilters(values);
            setAfter([0]);
          })}
        >
          <Group align="flex-end" gap="sm">
            <NativeSelect
              label="Module"
              data={[
                { value: '', label: 'Any' },
                ...settings.modules.map((module) => ({ value: module.id, label: module.shortTitle })),
              ]}
              {...form.getInputProps('module')}
            />
            <TextInput label="Type" placeholder="LeaveApplicationApproved" {...form.getInputProps('type')} />
            <TextInput label="Actor" placeholder="key:…" {...form.getInputProps('actor')} />
            <TextInput label="From" type="datetime-local" {...form.getInputProps('from')} />
            <TextInput label="To" type="datetime-local" {...form.getInputProps('to')} />
            <Button type="submit">Apply filters</Button>
            <Switch
              label="Live tail"
              checked={live}
              onChange={(event) => setLive(event.currentTarget.checked)}
            />
          </Group>
        </form>
      </Paper>
      {live && <LiveTail filters={filters} />}
      <ErrorNotice error={page.error} />
      {page.isPending ? (
        <Loading />
      ) : (
        page.data && (
          <>
            <Text size="sm" c="dimmed" mb="xs">
              {page.data.data.length} events after position {cursor}; the log holds{' '}
              {page.data.meta.head_position}.
            </Text>
            <EventRows events={page.data.data} />
            <Group mt="md">
              <Button
                variant="default"
                disabled={after.length === 1}
                onClick={() => setAfter((current) => current.slice(0, -1))}
              >
                Previous page
              </Button>
              <Button
                variant="default"
                disabled={page.data.meta.next_after === null}
                onClick={() => setAfter((current) => [...current, page.data.meta.next_after ?? 0])}
              >
                Next page
              </Button>
            </Group>
          </>
        )
      )}
    </>
  );
}
