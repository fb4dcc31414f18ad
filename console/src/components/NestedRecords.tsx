import { ScrollArea, Stack, Table, Title } from '@mantine/core';
import { fieldLabel } from '../api/field-text';
import { FieldValue } from './FieldValue';

type Row = Record<string, unknown>;

/** Whether a record's field holds records of its own (a competitor's locations and prices). */
export const holdsRecords = (value: unknown): value is Row[] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item));

/** The records one field of a record holds, as a table of their own under the field's name. */
export function NestedRecords({ name, rows }: { name: string; rows: Row[] }) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const label = fieldLabel(name);
  return (
    <Stack gap="xs" mb="xl">
      <Title order={2} size="h3">
        {label} ({rows.length})
      </Title>
      {/* A keyboard can scroll a wide table too: its viewport takes the focus. */}
      <ScrollArea viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': label }}>
        <Table striped withTableBorder fz="sm" aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column} scope="col">
                  {fieldLabel(column)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row, index) => (
              <Table.Tr key={index}>
                {columns.map((column) => (
                  <Table.Td key={column}>
                    <FieldValue name={column} value={row[column]} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Stack>
  );
}
