import { Anchor, Badge, Code, Text } from '@mantine/core';
import { formatTime, isCalendarDate, isTimestamp } from '../api/dates';
import { ERASED } from '../api/field-text';

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
  on_track: 'green',
  met: 'green',
  at_risk: 'orange',
  breached: 'red',
};

/** A web address on one line, cut short with an ellipsis: tables stay readable, the link is whole. */
const LINK_STYLE = {
  display: 'inline-block',
  maxWidth: '36ch',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  verticalAlign: 'bottom',
} as const;

/** Text that holds a JSON object (a request's `form_data`), as that object; other text as none. */
function parsedObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One value of a record as a person reads it: nothing as a dash, erased data as such, statuses as
 * badges, times in the browser's locale and zone, lists of values joined, web addresses as links,
 * other structures as JSON.
 */
export function FieldValue({ name, value }: { name: string; value: unknown }) {
  if (value === null || value === undefined || value === '')
    return (
      <Text c="dimmed" span>
        —
      </Text>
    );
  if (typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) {
    return <>{value.map(String).join(', ')}</>;
  }
  if (typeof value === 'object') {
    return (
      <Code block maw={520} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} tabIndex={0}>
        {JSON.stringify(value, null, 2)}
      </Code>
    );
  }
  const text = String(value);
  const structured = parsedObject(text);
  if (structured) return <FieldValue name={name} value={structured} />;
  if (text === ERASED) {
    return (
      <Text c="dimmed" fs="italic" span>
        erased
      </Text>
    );
  }
  const colour = STATUS_COLOURS[text.toLowerCase()];
  if (name === 'status' || (colour && /status|state/.test(name))) {
    return (
      <Badge variant="light" color={colour ?? 'gray'} c="dark.7" miw="max-content">
        {text}
      </Badge>
    );
  }
  if (isTimestamp(text) || isCalendarDate(text)) return <time dateTime={text}>{formatTime(text)}</time>;
  if (/^https?:\/\/\S+$/.test(text)) {
    // The suite's records cite their public sources (the market's evidence); they open apart from the console.
    return (
      <Anchor href={text} target="_blank" rel="noopener noreferrer" title={text} style={LINK_STYLE}>
        {text.replace(/^https?:\/\/(www\.)?/, '')}
      </Anchor>
    );
  }
  return <>{text}</>;
}
