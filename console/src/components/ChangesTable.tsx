import { Table } from '@mantine/core';
import { fieldLabel } from '../api/field-text';
import { FieldValue } from './FieldValue';

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/**
 * Fields as they were and as they became (or are now and would be): the one way the console shows a
 * change, in a record's activity, an action's preview and a proposal.
 */
export function ChangesTable({
  changes,
  label,
  headings = ['Before', 'After'],
}: {
  changes: readonly FieldChange[];
  label: string;
  headings?: [string, string];
}) {
  if (changes.length === 0) return null;
  return (
    <Table withTableBorder fz="sm" maw={720} aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Field</Table.Th>
          <Table.Th scope="col">{headings[0]}</Table.Th>
          <Table.Th scope="col">{headings[1]}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {changes.map((change) => (
          <Table.Tr key={change.field}>
            <Table.Td>{fieldLabel(change.field)}</Table.Td>
            <Table.Td>
              <FieldValue name={change.field} value={change.before} />
            </Table.Td>
            <Table.Td>
              <FieldValue name={change.field} value={change.after} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
