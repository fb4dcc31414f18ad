import { Badge, Group, Stack, Text, Timeline } from '@mantine/core';
import { formatMoment } from '../api/dates';
import { ChangesTable, type FieldChange } from './ChangesTable';

export interface HistoryStep {
  event: {
    position: number;
    type: string;
    stream: string;
    /** A proposal's events say why it ended: `reason` (rejected, withdrawn), `error` (failed). */
    data?: { reason?: unknown; error?: { message?: unknown } | null };
    /** The sealed values of `data` opened, by JSON pointer: what is shown where `data` holds one. */
    opened?: Record<string, unknown>;
    metadata: {
      actor: string;
      actor_name?: string;
      person?: string;
      occurred_at: string;
      proposed_by?: string;
      approved_by?: string;
    };
  };
  record: Record<string, unknown> | null;
  error?: string;
}

/** The fields whose values differ between two versions of a record. */
export function changesBetween(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): FieldChange[] {
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...fields]
    .filter((field) => JSON.stringify(before?.[field]) !== JSON.stringify(after?.[field]))
    .map((field) => ({ field, before: before?.[field], after: after?.[field] }));
}

/** A value of the event's data as shown: opened where the log stores it sealed. */
const shownAt = (event: HistoryStep['event'], pointer: string, stored: unknown) =>
  event.opened && pointer in event.opened ? event.opened[pointer] : stored;

/** Why a proposal ended as it did, as its event says; none for other events. */
function endingOf(step: HistoryStep): string | null {
  const { event } = step;
  if (!event.stream.startsWith('approvals.')) return null;
  const reason = shownAt(event, '/reason', event.data?.reason);
  const message = shownAt(event, '/error/message', event.data?.error?.message);
  if (typeof reason === 'string') return `Reason: ${reason}`;
  if (typeof message === 'string') return `Error: ${message}`;
  return null;
}

/**
 * A record's history, event by event: who caused each, the person behind them, for a change held back
 * for approval who proposed and who approved it, why a proposal ended otherwise (rejected, withdrawn,
 * failed), and the fields each event changed from one version to the next.
 */
export function HistoryTimeline({ steps }: { steps: HistoryStep[] }) {
  // The actors' names, as the events that name them recorded them.
  const names = new Map(
    steps.flatMap(({ event }) =>
      event.metadata.actor_name ? [[event.metadata.actor, event.metadata.actor_name]] : [],
    ),
  );
  const who = (actor: string) => (names.has(actor) ? `${names.get(actor)} (${actor})` : actor);
  let previous: Record<string, unknown> | null = null;
  return (
    <Timeline bulletSize={14} lineWidth={2} active={steps.length}>
      {steps.map((step) => {
        const changes = changesBetween(previous, step.record);
        previous = step.record;
        const { metadata } = step.event;
        const ending = endingOf(step);
        return (
          <Timeline.Item
            key={step.event.position}
            title={
              <Group gap="xs">
                <Text fw={600}>{step.event.type}</Text>
                {step.event.stream.startsWith('approvals.') && (
                  <Badge size="sm" variant="light" color="yellow" c="dark.7">
                    approval
                  </Badge>
                )}
              </Group>
            }
          >
            <Stack gap={4}>
              <Text size="sm" c="dimmed">
                {formatMoment(metadata.occurred_at)} · position {step.event.position} · by{' '}
                {who(metadata.actor)}
                {metadata.person && metadata.person !== metadata.actor && ` · person ${metadata.person}`}
              </Text>
              {ending && <Text size="sm">{ending}</Text>}
              {metadata.approved_by && (
                <Text size="sm">
                  Proposed by {who(metadata.proposed_by ?? 'unknown')}, approved by{' '}
                  {who(metadata.approved_by)}
                </Text>
              )}
              {step.error && (
                <Text size="sm" c="red">
                  Not applied: {step.error}
                </Text>
              )}
              <ChangesTable changes={changes} label={`Changes at position ${step.event.position}`} />
            </Stack>
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
