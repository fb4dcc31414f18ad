import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatMoment } from '../api/dates';
import { useModuleRequest, type Page } from '../api/module-request';
import type { OpenApi } from '../api/openapi';

interface Comment {
  id: string;
  body: string | null;
  visibility: 'public' | 'internal';
  author: string;
  author_name: string | null;
  added_on: string;
}

/** The path of a record's comments (`/api/v1/requests/{item_id}/comments`), where it has them. */
export const commentsPathOf = (api: OpenApi, itemPath: string): string | undefined => {
  const path = `${itemPath}/comments`;
  return api.paths[path]?.get ? path : undefined;
};

/** The replies and internal notes on a record, oldest first, each by its author's name. */
export function Conversation({ module, path, id }: { module: string; path: string; id: string }) {
  const call = useModuleRequest(module);
  const comments = useQuery({
    queryKey: ['module', module, 'comments', path, id],
    queryFn: () => call<Page<Comment>>(`${path.replace(/\{[^}]+\}/, encodeURIComponent(id))}?limit=200`),
  });
  if (comments.isPending || comments.isError) return null;
  if (comments.data.data.length === 0) return <Text c="dimmed">No reply or note yet.</Text>;
  return (
    <Stack gap="sm">
      {comments.data.data.map((comment) => {
        const internal = comment.visibility === 'internal';
        return (
          <Paper
            key={comment.id}
            withBorder
            p="sm"
            bg={internal ? 'yellow.0' : undefined}
            component="article"
            aria-label={`${internal ? 'Internal note' : 'Reply'} by ${comment.author_name ?? comment.author}`}
          >
            <Group gap="xs" mb={4}>
              <Text fw={600} size="sm">
                {comment.author_name ?? comment.author}
              </Text>
              <Badge size="sm" variant="light" color={internal ? 'yellow' : 'blue'} c="dark.7">
                {internal ? 'Internal note' : 'Reply'}
              </Badge>
              <Text size="sm" c="dimmed">
                <time dateTime={comment.added_on}>{formatMoment(comment.added_on)}</time>
              </Text>
            </Group>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {comment.body ?? '[erased]'}
            </Text>
          </Paper>
        );
      })}
    </Stack>
  );
}
