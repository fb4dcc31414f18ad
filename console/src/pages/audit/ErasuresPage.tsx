import { Code, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { requestJson } from '../../api/client';
import type { Page } from '../../api/module-request';
import { useSession } from '../../api/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageTitle } from '../../components/PageTitle';

interface Erasure {
  id: number;
  subject: string;
  reason: string;
  erased_at: string;
  erased_by: string;
}

export default function ErasuresPage() {
  const { auditUrl, token } = useSession();
  const erasures = useQuery({
    queryKey: ['audit', 'erasures'],
    queryFn: () => requestJson<Page<Erasure>>(`${auditUrl}/api/v1/erasures?limit=1000`, { token }),
  });
  return (
    <>
      <PageTitle
        title="Erasures"
        description="Data subjects whose personal data was erased: what, when, by whom and why. The log still verifies."
      />
      <ErrorNotice error={erasures.error} />
      {erasures.isPending ? (
        <Loading />
      ) : erasures.data?.meta.total === 0 ? (
        <Text>No data subject has been erased.</Text>
      ) : (
        <Table withTableBorder striped>
          <Table.Caption>{erasures.data?.meta.total} erasures</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Subject</Table.Th>
              <Table.Th scope="col">Erased</Table.Th>
              <Table.Th scope="col">By</Table.Th>
              <Table.Th scope="col">Reason</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {erasures.data?.data.map((erasure) => (
              <Table.Tr key={erasure.id}>
                <Table.Td>
                  <Code>{erasure.subject}</Code>
                </Table.Td>
                <Table.Td>{new Date(erasure.erased_at).toLocaleString()}</Table.Td>
                <Table.Td>{erasure.erased_by}</Table.Td>
                <Table.Td>{erasure.reason}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </>
  );
}
