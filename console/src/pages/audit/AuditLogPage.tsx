import {
  Anchor,
  Button,
  Code,
  Group,
  NativeSelect,
  Paper,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { LogEvent } from '../../api/audit';
import { formatMoment } from '../../api/dates';
import { LOG_FILTERS, newestPage, type LogFilters } from '../../api/log-pages';
import { followStream } from '../../api/live-tail';
import { useSession } from '../../api/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageTitle } from '../../components/PageTitle';
import { EventPanel } from './EventPanel';

const PAGE_SIZE = 50;
/** The live tail keeps the newest events it was sent, up to this many. */
const LIVE_KEPT = 200;

/** `2026-11-26T09:30` (a datetime-local field, the browser's time zone) as an ISO time. */
const isoOf = (local: string) => (local === '' ? '' : new Date(local).toISOString());

function EventRows({ events, onOpen }: { events: LogEvent[]; onOpen(position: number): void }) {
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table striped withTableBorder verticalSpacing="xs" fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Position</Table.Th>
            <Table.Th scope="col">Occurred</Table.Th>
            <Table.Th scope="col">Stream</Table.Th>
            <Table.Th scope="col">Type</Table.Th>
            <Table.Th scope="col">Actor</Table.Th>
            <Table.Th scope="col">Hash</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <Table.Tr key={event.position}>
              <Table.Td>
                <Anchor
                  component="button"
                  type="button"
                  onClick={() => onOpen(event.position)}
                  aria-label={`Open event ${event.position}`}
                >
                  {event.position}
                </Anchor>
              </Table.Td>
              <Table.Td>{formatMoment(event.metadata.occurred_at)}</Table.Td>
              <Table.Td>
                <Code style={{ whiteSpace: 'nowrap' }}>{event.stream}</Code>
              </Table.Td>
              <Table.Td>{event.type}</Table.Td>
              <Table.Td>{event.metadata.actor_name ?? event.metadata.actor}</Table.Td>
              <Table.Td>
                <Code title={event.hash}>{event.hash.slice(0, 12)}…</Code>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Events as the live tail sends them, newest first, while it is on. */
function LiveTail({ query, onOpen }: { query: string; onOpen(position: number): void }) {
  const { auditUrl, token } = useSession();
  const [events, setEvents] = useState<LogEvent[]>([]);
  const [failure, setFailure] = useState<unknown>();
  useEffect(() => {
    const stop = new AbortController();
    const url = `${auditUrl}/api/v1/events/live?${query}`;
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
  }, [auditUrl, token, query]);
  return (
    <Paper withBorder p="md" mb="lg">
      <Text fw={600} mb="xs" aria-live="polite">
        Live:{' '}
        {events.length === 0
          ? 'waiting for new events…'
          : `${events.length} new ${events.length === 1 ? 'event' : 'events'}`}
      </Text>
      <ErrorNotice error={failure} title="The live tail stopped" />
      {events.length > 0 && <EventRows events={events} onOpen={onOpen} />}
    </Paper>
  );
}

const isoOrEmpty = (local: string | undefined) => (local ? isoOf(local) : '');

/** The filters as the audit API takes them: times (a datetime-local field's) as ISO times. */
function sentFilters(search: URLSearchParams): LogFilters {
  const filters: LogFilters = {};
  for (const name of LOG_FILTERS) {
    const value = search.get(name)?.trim() ?? '';
    const sent = name === 'from' || name === 'to' ? isoOrEmpty(value) : value;
    if (sent !== '') filters[name] = sent;
  }
  return filters;
}

/**
 * The log newest first, its filters, its page (`until`) and the event open in the panel (`event`)
 * in the address, so that a view of the log can be shared and comes back on reload.
 */
export default function AuditLogPage() {
  const { auditUrl, token, settings } = useSession();
  const [search, setSearch] = useSearchParams();
  const [live, setLive] = useState(false);
  const filters = sentFilters(search);
  const untilText = search.get('until');
  const until = untilText && /^\d+$/.test(untilText) ? Number(untilText) : undefined;
  const opened = search.get('event');
  const form = useForm<Record<(typeof LOG_FILTERS)[number], string>>({
    initialValues: Object.fromEntries(LOG_FILTERS.map((name) => [name, search.get(name) ?? ''])) as Record<
      (typeof LOG_FILTERS)[number],
      string
    >,
  });
  const page = useQuery({
    queryKey: ['audit', 'events', filters, until],
    queryFn: () => newestPage(auditUrl, token, filters, until, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const setParameter = (name: string, value: string | undefined) =>
    setSearch((current) => {
      if (value === undefined) current.delete(name);
      else current.set(name, value);
      return current;
    });

  return (
    <>
      <PageTitle
        title="Event log"
        description="Every event the suite recorded, newest first, with who caused it."
      />
      <Paper withBorder p="md" mb="md">
        <form
          role="search"
          aria-label="Filter the log"
          onSubmit={form.onSubmit((values) =>
            setSearch(Object.entries(values).filter(([, value]) => value.trim() !== '')),
          )}
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
      {live && (
        <LiveTail
          query={new URLSearchParams(filters).toString()}
          onOpen={(position) => setParameter('event', String(position))}
        />
      )}
      <ErrorNotice error={page.error} />
      {page.isPending ? (
        <Loading />
      ) : (
        page.data && (
          <>
            <Text size="sm" c="dimmed" mb="xs">
              {page.data.events.length === 0
                ? 'No event matches.'
                : `${page.data.events.length} events, newest first, from position ${page.data.events[0]?.position}; the log holds ${page.data.head}.`}
            </Text>
            <EventRows
              events={page.data.events}
              onOpen={(position) => setParameter('event', String(position))}
            />
            <Group mt="md">
              <Button
                variant="default"
                disabled={until === undefined}
                onClick={() => setParameter('until', undefined)}
              >
                Newest events
              </Button>
              <Button
                variant="default"
                disabled={page.data.older === null}
                onClick={() => setParameter('until', String(page.data.older))}
              >
                Older events
              </Button>
            </Group>
          </>
        )
      )}
      <EventPanel position={opened} onClose={() => setParameter('event', undefined)} />
    </>
  );
}
