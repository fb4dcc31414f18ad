import { Anchor, Table, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { fieldLabel } from '../api/field-text';
import type { ReferenceOf } from '../api/references';
import { FieldValue } from './FieldValue';

/** A field of a record: what a reference names (linked to it), else the value itself. */
export function ValueOrReference({
  name,
  row,
  referenceOf,
}: {
  name: string;
  row: Record<string, unknown>;
  referenceOf: ReferenceOf;
}) {
  const reference = referenceOf(name, row);
  if (!reference) return <FieldValue name={name} value={row[name]} />;
  if (!reference.to) return <>{reference.name}</>;
  return (
    <Anchor component={Link} to={reference.to}>
      {reference.name}
    </Anchor>
  );
}

/** `field` ascending, `-field` descending. */
export interface Sorting {
  current: string | undefined;
  fieldOf(column: string): string | undefined;
  onSort(sort: string): void;
}

function SortableHeading({ column, sorting }: { column: string; sorting: Sorting }) {
  const field = sorting.fieldOf(column);
  const label = fieldLabel(column);
  if (!field) return <>{label}</>;
  const direction =
    sorting.current === field ? 'ascending' : sorting.current === `-${field}` ? 'descending' : undefined;
  const next = direction === 'ascending' ? `-${field}` : field;
  return (
    <UnstyledButton
      onClick={() => sorting.onSort(next)}
      fw={700}
      fz="sm"
      aria-label={`${label}, sort ${direction === 'ascending' ? 'descending' : 'ascending'}`}
    >
      {label} {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}
    </UnstyledButton>
  );
}

/**
 * Records as a table: the first column links to each record's page, references show the names of
 * what they refer to (linked), headers sort where the list can. On a phone each row is a card of
 * labelled fields (`.stacked-table`), so nothing scrolls off the side.
 */
export function RecordTable({
  caption,
  columns,
  rows,
  recordPath,
  referenceOf,
  sorting,
}: {
  caption: string;
  columns: string[];
  rows: Record<string, unknown>[];
  recordPath: ((row: Record<string, unknown>) => string) | undefined;
  referenceOf: ReferenceOf;
  sorting: Sorting;
}) {
  const ariaSort = (column: string) => {
    const field = sorting.fieldOf(column);
    if (!field) return undefined;
    if (sorting.current === field) return 'ascending';
    return sorting.current === `-${field}` ? 'descending' : 'none';
  };
  return (
    <Table striped highlightOnHover withTableBorder verticalSpacing="xs" className="stacked-table">
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th key={column} scope="col" aria-sort={ariaSort(column)}>
              <SortableHeading column={column} sorting={sorting} />
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={String(row.id)}>
            {columns.map((column, index) => {
              return (
                <Table.Td key={column} data-label={fieldLabel(column)}>
                  {index === 0 && recordPath ? (
                    <Anchor component={Link} to={recordPath(row)} fw={600} style={{ whiteSpace: 'nowrap' }}>
                      {String(row[column] ?? row.id)}
                    </Anchor>
                  ) : (
                    <ValueOrReference name={column} row={row} referenceOf={referenceOf} />
                  )}
                </Table.Td>
              );
            })}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
