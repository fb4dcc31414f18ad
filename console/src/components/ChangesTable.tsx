import { Table } from '@mantine/core';
import { fieldLabel } from '../api/field-text';
import type { ReferenceOf } from '../api/references';
import { FieldValue } from './FieldValue';
import { ValueOrReference } from './RecordTable';

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/**
 * Fields as they were and as they became (or are now and would be): the one way the console shows a
 * change, in a record's activity, an action's preview and a proposal. With `referenceOf`, a reference
 * shows what it names (`assignee_id` 1 as `Priya Raman`).
 */
export function ChangesTable({
  changes,
  label,
  headings = ['Before', 'After'],
  referenceOf,
}: {
  changes: readonly FieldChange[];
  label: string;
  headings?: [string, string];
  referenceOf?: ReferenceOf;
}) {
  const value = (field: string, given: unknown) =>
    referenceOf ? (
      <ValueOrReference name={field} row={{ [field]: given }} referenceOf={referenceOf} />
    ) : (
      <FieldValue name={field} value={given} />
    );
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
            <Table.Td>{value(change.field, change.before)}</Table.Td>
            <Table.Td>{value(change.field, change.after)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
