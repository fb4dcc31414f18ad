import { Button, Group } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { DESK, deskQueues, useMyAgent } from '../api/desk';

/** The desk's queues as links that set the address: a queue is a saved view of the requests. */
export function DeskQueues({ sortable }: { sortable: readonly string[] }) {
  const { agent } = useMyAgent();
  const [search] = useSearchParams();
  const current = new URLSearchParams(search);
  current.delete('page');
  return (
    <Group gap="xs" mb="md" component="nav" aria-label="Queues">
      {deskQueues(agent, sortable).map((queue) => {
        const selected = queue.query.toString() === current.toString();
        return (
          <Button
            key={queue.label}
            component={Link}
            to={`/m/${DESK.module}/${DESK.resource}?${queue.query.toString()}`}
            variant={selected ? 'filled' : 'default'}
            aria-current={selected ? 'page' : undefined}
            size="sm"
          >
            {queue.label}
          </Button>
        );
      })}
    </Group>
  );
}
