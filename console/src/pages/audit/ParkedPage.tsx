import { Code, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { requestJson } from '../../api/client';
import type { Page } from '../../api/module-request';
import { useSession } from '../../api/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageTitle } from '../../components/PageTitle';

interface ParkedEvent {
  id: string;
  projection: string;
  position: number;
  event_id: string;
  stream: string;
  type: string;
  error: string;
}

export default function ParkedPage() {
  const { auditUrl, token } = useSession();
  const parked = useQuery({
    queryKey: ['audit', 'parked'],
    queryFn: () =>
      requestJson<Page<ParkedEvent>>(`${auditUrl}/api/v1/projections/parked?limit=200`, { token }),
  });
  return (
    <>
      <PageTitle
        title="Parked events"
        description="Events a projection could not apply: parked, while every other read model stays live."
      />
      <ErrorNotice error={parked.error} />
      {parked.isPending ? (
        <Loading />
      ) : !parked.data ? null : parked.data.meta.total === 0 ? (
        <Text>No event is parked: every read model applied every event.</Text>
      ) : (
        // Its rows hold nothing to focus: the region itself is, to scroll it by keyboard.
        <Table.ScrollContainer
          minWidth={800}
          scrollAreaProps={{ viewportProps: { tabIndex: 0, 'aria-label': 'Parked events' } }}
        >
          <Table withTableBorder striped>
            <Table.Caption>
              {parked.data.meta.total === 1 ? '1 parked event' : `${parked.data.meta.total} parked events`}.
              Once the cause is fixed (an upcaster, a corrected projection),{' '}
              <code>suite projections retry</code> folds them again.
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Position</Table.Th>
                <Table.Th scope="col">Read model</Table.Th>
                <Table.Th scope="col">Stream</Table.Th>
                <Table.Th scope="col">Type</Table.Th>
                <Table.Th scope="col">Error</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {parked.data.data.map((event) => (
                <Table.Tr key={event.id}>
                  <Table.Td>{event.position}</Table.Td>
                  <Table.Td>{event.projection}</Table.Td>
                  <Table.Td>
                    <Code>{event.stream}</Code>
                  </Table.Td>
                  <Table.Td>{event.type}</Table.Td>
                  <Table.Td>{event.error}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
