import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { displayName, holds } from '../api/principal';
import { usePrincipal, useSession } from '../api/session';

export default function HomePage() {
  const principal = usePrincipal();
  const { settings } = useSession();
  const auditor = holds(principal, 'auditor');
  return (
    <Stack>
      <div>
        <Title order={1}>Welcome, {displayName(principal)}</Title>
        <Text c="dimmed">
          Signed in as <code>{principal.id}</code> with{' '}
          {principal.roles.length === 1 ? 'the role' : 'the roles'} {principal.roles.join(', ')}.
        </Text>
      </div>
      <Group>
        <Anchor component={Link} to="/approvals">
          Proposals waiting for a decision
        </Anchor>
        {auditor && (
          <Anchor component={Link} to="/audit/verify">
            Verify the log
          </Anchor>
        )}
      </Group>
      {!auditor && (
        <Text size="sm" c="dimmed">
          The audit pages (the event log, verification, evidence) need the role <code>auditor</code>, a duty
          apart from every other: sign in with <code>SUITE_AUDIT_TOKEN</code> or an API key that holds it (
          <code>suite keys create --name &quot;Otto Auditor&quot; --role auditor</code>).
        </Text>
      )}
      <Title order={2} size="h3">
        Modules
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {settings.modules.map((module) => {
          const role = ['writer', 'approver', 'reader'].find((duty) =>
            holds(principal, `${module.id}:${duty}`),
          );
          return (
            <Card key={module.id} withBorder padding="md">
              <Group justify="space-between" wrap="nowrap">
                <Anchor component={Link} to={`/m/${module.id}`} fw={600} aria-label={`Open ${module.title}`}>
                  {module.title}
                </Anchor>
                {role && (
                  <Badge variant="light" miw="max-content">
                    {role}
                  </Badge>
                )}
              </Group>
              <Text size="sm" c="dimmed" mt={4}>
                Port {module.port}
              </Text>
            </Card>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
