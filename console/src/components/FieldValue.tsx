import { Badge, Code, Text } from '@mantine/core';

const STATUS_COLOURS: Record<string, string> = {
  approved: 'green',
  applied: 'green',
  active: 'green',
  open: 'blue',
  pending: 'yellow',
  rejected: 'red',
  failed: 'red',
  cancelled: 'gray',
  expired: 'gray',
};

/** One value of a record as a person reads it: nothing as a dash, statuses as badges, structures as JSON. */
export function FieldValue({ name, value }: { name: string; value: unknown }) {
  if (value === null || value === undefined || value === '')
    return (
      <Text c="dimmed" span>
        —
      </Text>
    );
  if (typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  if (typeof value === 'object') {
    return (
      <Code block maw={520} style={{ whiteSpace: 'pre-wrap' }} tabIndex={0}>
        {JSON.stringify(value, null, 2)}
      </Code>
    );
  }
  const text = String(value);
  const colour = STATUS_COLOURS[text.toLowerCase()];
  if (name === 'status' || (colour && /status|state/.test(name))) {
    return (
      <Badge variant="light" color={colour ?? 'gray'} c="dark.7" miw="max-content">
        {text}
      </Badge>
    );
  }
  return <>{text}</>;
}

/** A field name as a label: `employee_name` as `Employee name`. */
export const fieldLabel = (name: string): string => {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};
