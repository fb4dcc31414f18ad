import { Code, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { requestJson } from '../../api/client';
import { formatMoment } from '../../api/dates';
import type { Page } from '../../api/module-request';
import { holds } from '../../api/principal';
import { usePrincipal, useSession } from '../../api/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageTitle } from '../../components/PageTitle';
import type { Erasure } from '../../api/erasures';
import { EraseSubjectForm } from './EraseSubjectForm';

function ErasureList() {
  const { auditUrl, token } = useSession();
  const erasures = useQuery({
    queryKey: ['audit', 'erasures'],
    queryFn: () => requestJson<Page<Erasure>>(`${auditUrl}/api/v1/erasures?limit=1000`, { token }),
  });
  if (erasures.isPending) return <Loading />;
  if (erasures.isError) return <ErrorNotice error={erasures.error} />;
  if (erasures.data.meta.total === 0) return <Text>No data subject has been erased.</Text>;
  return (
    <Table withTableBorder striped>
      <Table.Caption>
        {erasures.data.meta.total === 1 ? '1 erasure' : `${erasures.data.meta.total} erasures`}
      </Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Subject</Table.Th>
          <Table.Th scope="col">Erased</Table.Th>
          <Table.Th scope="col">By</Table.Th>
          <Table.Th scope="col">Reason</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {erasures.data.data.map((erasure) => (
          <Table.Tr key={erasure.id}>
            <Table.Td>
              <Code>{erasure.subject}</Code>
            </Table.Td>
            <Table.Td>{formatMoment(erasure.erased_at)}</Table.Td>
            <Table.Td>{erasure.erased_by}</Table.Td>
            <Table.Td>{erasure.reason}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Erasures: auditors see what was erased; administrators may erase a data subject. The two are separate
 * duties (an administrator does not hold `auditor`), so each sees the part their role opens.
 */
export default function ErasuresPage() {
  const principal = usePrincipal();
  const auditor = holds(principal, 'auditor');
  const administrator = holds(principal, 'admin');
  return (
    <>
      <PageTitle
        title="Erasures"
        description="Data subjects whose personal data was erased: what, when, by whom and why. The log still verifies."
      />
      {administrator && <EraseSubjectForm />}
      {administrator && auditor && (
        <Title order={2} size="h3" mt="xl" mb="sm">
          Erased so far
        </Title>
      )}
      {auditor ? (
        <ErasureList />
      ) : (
        <Text c="dimmed" mt="md">
          The list of erasures is for auditors (the role auditor).
        </Text>
      )}
    </>
  );
}
