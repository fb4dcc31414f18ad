import {
  AppShell,
  Badge,
  Burger,
  Button,
  Group,
  ScrollArea,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { displayName, holds } from '../api/principal';
import { usePrincipal, useSession } from '../api/session';
import { Navigation } from './Navigation';

/** The frame of every signed-in page: who is signed in, the navigation, and the page. */
export function Shell({ children }: { children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  const principal = usePrincipal();
  const { signOut } = useSession();
  const location = useLocation();
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 280, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
            />
            <Title order={2} size="h4" visibleFrom="xs">
              Suite console
            </Title>
          </Group>
          {/* On a phone the name gives way (cut short), never Sign out. */}
          <Group gap="sm" wrap="nowrap" aria-label="Signed in" miw={0}>
            <VisuallyHidden>Signed in as</VisuallyHidden>
            <Text fw={600} size="sm" data-testid="principal-name" truncate="end" miw={0}>
              {displayName(principal)}
            </Text>
            <Group gap={4} visibleFrom="md" data-testid="principal-roles">
              {principal.roles.map((role) => (
                <Badge key={role} variant="light" color={holds(principal, 'auditor') ? 'grape' : 'indigo'}>
                  {role}
                </Badge>
              ))}
            </Group>
            <Button variant="default" size="xs" onClick={signOut} style={{ flexShrink: 0 }}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Console">
        <AppShell.Section grow component={ScrollArea}>
          <Navigation current={location.pathname} onNavigate={close} />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
