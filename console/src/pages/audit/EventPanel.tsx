import { Button, Code, Drawer, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { download, evidenceBundle, type LogEvent } from '../../api/audit';
import { requestJson } from '../../api/client';
import { formatMoment } from '../../api/dates';
import { useSession } from '../../api/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';

interface InclusionProof {
  index: number;
  tree_size: number;
  leaf_hash: string;
  hashes: string[];
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text component="dd" m={0} size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** One event of the log, opened: its facts, its data as stored (and opened), its proof, its evidence. */
function EventDetails({ position }: { position: number }) {
  const { auditUrl, token } = useSession();
  const [failure, setFailure] = useState<unknown>();
  const event = useQuery({
    queryKey: ['audit', 'event', position],
    queryFn: async () =>
      (
        await requestJson<{ data: LogEvent[] }>(
          `${auditUrl}/api/v1/events?after=${position - 1}&until=${position}&limit=1`,
          { token },
        )
      ).data[0] ?? null,
  });
  const proof = useQuery({
    queryKey: ['audit', 'inclusion', position],
    queryFn: () =>
      requestJson<InclusionProof>(`${auditUrl}/api/v1/proofs/inclusion?position=${position}`, { token }),
    retry: false,
  });
  if (event.isPending) return <Loading label="Loading the event" />;
  if (event.isError) return <ErrorNotice error={event.error} />;
  if (!event.data) return <Text>No event at position {position}.</Text>;
  const { metadata } = event.data;
  const evidence = async () => {
    setFailure(undefined);
    try {
      download(`evidence-${position}.json`, await evidenceBundle(auditUrl, token, position));
    } catch (error) {
      setFailure(error);
    }
  };
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, xs: 2 }} component="dl" m={0} spacing="sm">
        <Fact label="Type">{event.data.type}</Fact>
        <Fact label="Occurred">{formatMoment(metadata.occurred_at)}</Fact>
        <Fact label="Stream">
          <Code>{event.data.stream}</Code> (revision {event.data.revision})
        </Fact>
        <Fact label="By">
          {metadata.actor_name ? `${metadata.actor_name} (${metadata.actor})` : metadata.actor}
        </Fact>
        {metadata.proposed_by && <Fact label="Proposed by">{metadata.proposed_by}</Fact>}
        {metadata.approved_by && <Fact label="Approved by">{metadata.approved_by}</Fact>}
        <Fact label="Hash">
          <Code>{event.data.hash}</Code>
        </Fact>
        <Fact label="Previous hash">
          <Code>{event.data.prev_hash}</Code>
        </Fact>
      </SimpleGrid>
      <Title order={3} size="h5">
        Data
      </Title>
      <Code block tabIndex={0}>
        {json(event.data.data)}
      </Code>
      {event.data.opened && Object.keys(event.data.opened).length > 0 && (
        <>
          <Title order={3} size="h5">
            Personal values, opened
          </Title>
          <Code block tabIndex={0}>
            {json(event.data.opened)}
          </Code>
        </>
      )}
      <Title order={3} size="h5">
        Proof
      </Title>
      {proof.isPending ? (
        <Loading label="Loading the proof" />
      ) : proof.isError ? (
        <ErrorNotice error={proof.error} title="No proof yet" />
      ) : (
        <>
          <Text size="sm" data-testid="inclusion-proof">
            Leaf {proof.data.index} of the signed tree of {proof.data.tree_size} events;{' '}
            {proof.data.hashes.length} hashes on its path to the root.
          </Text>
          <Code block tabIndex={0}>
            {json({ leaf_hash: proof.data.leaf_hash, hashes: proof.data.hashes })}
          </Code>
        </>
      )}
      <ErrorNotice error={failure} title="No evidence could be made" />
      <Button variant="light" onClick={() => void evidence()}>
        Download evidence
      </Button>
    </Stack>
  );
}

/** The panel an event of the log opens in, beside the log. */
export function EventPanel({ position, onClose }: { position: string | null; onClose(): void }) {
  const valid = position !== null && /^\d+$/.test(position) && Number(position) > 0;
  return (
    <Drawer
      opened={valid}
      onClose={onClose}
      position="right"
      size="lg"
      title={valid ? `Event ${position}` : undefined}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {valid && <EventDetails position={Number(position)} />}
    </Drawer>
  );
}
