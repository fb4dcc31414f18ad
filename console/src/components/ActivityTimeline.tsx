import { Badge, Group, Paper, Stack, Text, Timeline } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatMoment } from '../api/dates';
import { useModuleRequest } from '../api/module-request';
import { useOpenApi } from '../api/modules';
import type { OpenApi } from '../api/openapi';
import { useReferences, type ReferenceOf } from '../api/references';
import { ChangesTable, type FieldChange } from './ChangesTable';
import { ErrorNotice } from './ErrorNotice';
import { Loading } from './Loading';

/** One thing that happened to a record, as its module's activity tells it. */
interface ActivityEntry {
  occurred_at: string;
  position: number;
  /** A name: the person's, the credential's or the job's. */
  actor: string;
  kind: 'created' | 'changed' | 'comment' | 'proposal' | 'erasure';
  summary: string;
  changes: FieldChange[];
  comment: { body: string | null; visibility: string } | null;
  proposal: { id: string; route: string; status: string } | null;
}

/** The most recent entries shown: a record's story, not its archive (the audit API keeps that). */
const SHOWN = 100;

/** The path of a record's activity (`/api/v1/requests/{item_id}/activity`), where its module serves one. */
export const activityPathOf = (api: OpenApi, itemPath: string): string | undefined => {
  const path = `${itemPath}/activity`;
  return api.paths[path]?.get ? path : undefined;
};

const KIND_COLOURS: Record<ActivityEntry['kind'], string> = {
  created: 'green',
  changed: 'blue',
  comment: 'gray',
  proposal: 'yellow',
  erasure: 'red',
};

/** A comment as its readers know it: a reply the requester sees, or a note among staff. */
const commentName = (entry: ActivityEntry) =>
  `${entry.comment?.visibility === 'internal' ? 'Internal note' : 'Reply'} by ${entry.actor}`;

function Entry({ entry, referenceOf }: { entry: ActivityEntry; referenceOf: ReferenceOf }) {
  const internal = entry.comment?.visibility === 'internal';
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed">
        {entry.actor} · <time dateTime={entry.occurred_at}>{formatMoment(entry.occurred_at)}</time>
      </Text>
      {entry.comment && (
        <Paper
          withBorder
          p="sm"
          bg={internal ? 'yellow.0' : undefined}
          component="article"
          aria-label={commentName(entry)}
        >
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {entry.comment.body ?? 'erased'}
          </Text>
        </Paper>
      )}
      <ChangesTable
        changes={entry.changes}
        label={`Changes at position ${entry.position}`}
        referenceOf={referenceOf}
      />
    </Stack>
  );
}

/**
 * A record's activity, newest first, for whoever may read the record: its creation and changes (each
 * field before and after), comments (internal notes marked), proposals and erasures, each by name.
 */
export function ActivityTimeline({ module, path, id }: { module: string; path: string; id: string }) {
  const call = useModuleRequest(module);
  const activity = useQuery({
    queryKey: ['module', module, 'activity', path, id],
    queryFn: () =>
      call<{ data: ActivityEntry[]; meta: { total: number } }>(
        `${path.replace(/\{[^}]+\}/, encodeURIComponent(id))}?limit=${SHOWN}`,
      ),
  });
  // The references the changes hold (an assignee, a requester), by name.
  const changes = activity.data?.data.flatMap((entry) => entry.changes) ?? [];
  const referenceOf = useReferences(
    module,
    useOpenApi(module).data,
    [...new Set(changes.map((change) => change.field))],
    changes.flatMap((change) => [{ [change.field]: change.before }, { [change.field]: change.after }]),
  );
  if (activity.isPending) return <Loading label="Loading activity" />;
  if (activity.isError) return <ErrorNotice error={activity.error} title="The activity could not be read" />;
  const { data, meta } = activity.data;
  return (
    <>
      <Timeline bulletSize={14} lineWidth={2} active={-1}>
        {data.map((entry) => (
          <Timeline.Item
            key={`${entry.position}-${entry.kind}-${entry.proposal?.id ?? ''}`}
            title={
              <Group gap="xs">
                <Text fw={600}>{entry.summary}</Text>
                <Badge size="sm" variant="light" color={KIND_COLOURS[entry.kind]} c="dark.7">
                  {entry.kind === 'comment' && entry.comment?.visibility === 'internal'
                    ? 'internal note'
                    : entry.kind}
                </Badge>
                {entry.proposal && (
                  <Badge size="sm" variant="outline" color="gray" c="dark.7">
                    {entry.proposal.status}
                  </Badge>
                )}
              </Group>
            }
          >
            <Entry entry={entry} referenceOf={referenceOf} />
          </Timeline.Item>
        ))}
      </Timeline>
      {meta.total > data.length && (
        <Text size="sm" c="dimmed">
          The {data.length} most recent of {meta.total}; the audit log holds them all.
        </Text>
      )}
    </>
  );
}
