import { Badge, Box, Divider, NavLink, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { useOpenApi } from '../api/modules';
import { resourceLabel } from '../api/names';
import { tablesOf } from '../api/openapi';
import { holds } from '../api/principal';
import { useWaitingCount } from '../api/proposals';
import { usePrincipal, useSession } from '../api/session';

/** The resources of one module, listed under its link once the module is open. */
function ModuleLinks({
  id,
  shortTitle,
  current,
  onNavigate,
}: {
  id: string;
  shortTitle: string;
  current: string;
  onNavigate(): void;
}) {
  const base = `/m/${id}`;
  const open = current === base || current.startsWith(`${base}/`);
  const api = useOpenApi(id);
  // Not the library's nested links: a link with children toggles them instead of going to the module.
  return (
    <>
      <NavLink component={Link} to={base} label={shortTitle} active={current === base} onClick={onNavigate} />
      {open && (
        <Box pl="md">
          {(api.data ? tablesOf(api.data) : []).map((table) => {
            const to = `${base}/${table.name}`;
            return (
              <NavLink
                key={table.name}
                component={Link}
                to={to}
                label={resourceLabel(table.name)}
                active={current === to || current.startsWith(`${to}/`)}
                onClick={onNavigate}
              />
            );
          })}
        </Box>
      )}
    </>
  );
}

export function Navigation({ current, onNavigate }: { current: string; onNavigate(): void }) {
  const { settings } = useSession();
  const principal = usePrincipal();
  const auditor = holds(principal, 'auditor');
  // Erasure is an administrator's duty; the rest of the audit pages are the auditors'.
  const administrator = holds(principal, 'admin');
  const waiting = useWaitingCount();
  const section = (label: string) => (
    <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={4}>
      {label}
    </Text>
  );
  const link = (to: string, label: string) => (
    <NavLink component={Link} to={to} label={label} active={current === to} onClick={onNavigate} />
  );
  return (
    <>
      {link('/', 'Overview')}
      <NavLink
        component={Link}
        to="/approvals"
        label="Approvals"
        active={current === '/approvals'}
        onClick={onNavigate}
        rightSection={
          waiting > 0 && (
            <Badge size="sm" color="red.9">
              {waiting}
              <VisuallyHidden> waiting for your decision</VisuallyHidden>
            </Badge>
          )
        }
      />
      {section('Back office')}
      {settings.modules.map((module) => (
        <ModuleLinks key={module.id} {...module} current={current} onNavigate={onNavigate} />
      ))}
      {(auditor || administrator) && (
        <>
          <Divider my="xs" />
          {section('Audit')}
          {auditor && link('/audit', 'Event log')}
          {auditor && link('/audit/verify', 'Verify and checkpoints')}
          {auditor && link('/audit/parked', 'Parked events')}
          {link('/audit/erasures', 'Erasures')}
        </>
      )}
    </>
  );
}
