import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { latestCheckpoint } from '../../api/audit';
import { fromHex, parseCheckpoint, verifyConsistency } from '../../api/checkpoint';
import { requestJson } from '../../api/client';
import { useSession } from '../../api/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageTitle } from '../../components/PageTitle';

interface VerifyReport {
  ok: boolean;
  events_checked: number;
  streams: number;
  digest: { position: number; sha256: string };
  problems: unknown[];
}

interface Extension {
  extends: boolean;
  from: number;
  to: number;
  reason?: string;
}

function VerifyLog() {
  const { auditUrl, token } = useSession();
  const verify = useMutation({
    mutationFn: () => requestJson<VerifyReport>(`${auditUrl}/api/v1/verify`, { token }),
  });
  const report = verify.data;
  return (
    <Paper withBorder p="lg">
      <Title order={2} size="h3">
        Hash chains
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        Re-reads the whole log: each stream&apos;s hash chain, its revisions and its events&apos; schemas.
      </Text>
      <Button onClick={() => verify.mutate()} loading={verify.isPending}>
        Verify
      </Button>
      <ErrorNotice error={verify.error} />
      {report && (
        <Alert
          mt="md"
          role="status"
          color={report.ok ? 'green' : 'red'}
          title={
            report.ok ? 'The log verifies' : `The log does not verify: ${report.problems.length} problems`
          }
          data-testid="verify-result"
        >
          <Stack gap={4}>
            <Text size="sm">
              {report.events_checked} events in {report.streams} streams checked.
            </Text>
            <Text size="sm">
              Digest up to position {report.digest.position}:{' '}
              <Code style={{ wordBreak: 'break-all' }}>{report.digest.sha256}</Code>
            </Text>
            {report.problems.length > 0 && (
              <Code block tabIndex={0}>
                {JSON.stringify(report.problems.slice(0, 20), null, 2)}
              </Code>
            )}
          </Stack>
        </Alert>
      )}
    </Paper>
  );
}

function Checkpoints() {
  const { auditUrl, token } = useSession();
  const latest = useQuery({
    queryKey: ['audit', 'checkpoint'],
    queryFn: () => latestCheckpoint(auditUrl, token),
  });
  const form = useForm({
    initialValues: { older: '' },
    validate: {
      older: (value) => {
        try {
          parseCheckpoint(value);
          return null;
        } catch (error) {
          return (error as Error).message;
        }
      },
    },
  });
  const check = useMutation({
    mutationFn: async (older: string): Promise<Extension> => {
      const old = parseCheckpoint(older);
      const now = parseCheckpoint(await latestCheckpoint(auditUrl, token));
      const outcome = { from: old.size, to: now.size };
      if (old.origin !== now.origin)
        return { ...outcome, extends: false, reason: `it is of another log (${old.origin})` };
      if (old.size > now.size)
        return { ...outcome, extends: false, reason: 'it is larger than the latest tree' };
      const proof =
        old.size === now.size
          ? { hashes: [] }
          : await requestJson<{ hashes: string[] }>(
              `${auditUrl}/api/v1/proofs/consistency?from=${old.size}&to=${now.size}`,
              { token },
            );
      const extends_ = await verifyConsistency(
        old.size,
        now.size,
        old.root,
        now.root,
        proof.hashes.map(fromHex),
      );
      return extends_
        ? { ...outcome, extends: true }
        : { ...outcome, extends: false, reason: 'the consistency proof fails' };
    },
  });
  const result = check.data;
  return (
    <Paper withBorder p="lg">
      <Title order={2} size="h3">
        Signed checkpoints
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        Keep a checkpoint; paste it later to check that the log still extends it (nothing was rewritten). The
        proof is checked here, in your browser.
      </Text>
      <Group justify="space-between" mb={4}>
        <Text fw={600} size="sm">
          Latest checkpoint
        </Text>
        {latest.data && (
          <CopyButton value={latest.data}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy to keep it'}
              </Button>
            )}
          </CopyButton>
        )}
      </Group>
      {latest.isPending ? (
        <Loading />
      ) : latest.isError ? (
        <ErrorNotice error={latest.error} />
      ) : (
        <Code
          block
          data-testid="latest-checkpoint"
          tabIndex={0}
          aria-label="Latest checkpoint"
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
        >
          {latest.data}
        </Code>
      )}
      <form noValidate onSubmit={form.onSubmit(({ older }) => check.mutate(older))}>
        <Stack mt="md">
          <Textarea
            label="Older checkpoint"
            description="A checkpoint you saved before, as it was given (its signature lines may stay)"
            autosize
            minRows={4}
            styles={{ input: { fontFamily: 'monospace' } }}
            {...form.getInputProps('older')}
          />
          <Group>
            <Button type="submit" loading={check.isPending}>
              Check that the log extends it
            </Button>
          </Group>
        </Stack>
      </form>
      <ErrorNotice error={check.error} />
      {result && (
        <Alert
          mt="md"
          role="status"
          data-testid="extension-result"
          color={result.extends ? 'green' : 'red'}
          title={
            result.extends
              ? `The log extends the checkpoint of ${result.from} events (now ${result.to})`
              : `The log does not extend this checkpoint: ${result.reason}`
          }
        />
      )}
    </Paper>
  );
}

export default function VerifyPage() {
  return (
    <>
      <PageTitle title="Verify the log" description="Check that history was not changed after the fact." />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <VerifyLog />
        <Checkpoints />
      </SimpleGrid>
    </>
  );
}
