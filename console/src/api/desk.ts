import { useQuery } from '@tanstack/react-query';
import { useModuleRequest, type Page } from './module-request';
import { usePrincipal } from './session';

/** The service desk's module and its list of requests: the desk's queues are views of it. */
export const DESK = { module: 'esm', resource: 'requests' } as const;

export interface Agent {
  id: number;
  name: string;
  is_active: boolean | number;
}

/**
 * The agent the signed-in person works as: the active agent of the desk who bears their name (an
 * agent is a person of the desk's own records, not a credential). None for whoever is not one.
 */
export function useMyAgent(wanted = true): { agent: Agent | undefined; isPending: boolean } {
  const principal = usePrincipal();
  const call = useModuleRequest(DESK.module);
  const name = principal.name?.trim() ?? '';
  const agents = useQuery({
    queryKey: ['module', DESK.module, 'agent-named', name],
    queryFn: () =>
      call<Page<Agent>>(`/api/v1/agents?${new URLSearchParams({ q: name, is_active: 'true', limit: '50' })}`),
    enabled: wanted && name !== '',
    staleTime: 5 * 60_000,
  });
  const agent = agents.data?.data.find(
    (candidate) => candidate.name.toLocaleLowerCase() === name.toLocaleLowerCase(),
  );
  return { agent, isPending: wanted && name !== '' && agents.isPending };
}

/** The due time a queue is sorted by: the earliest due first, as the list can sort by it. */
const DUE_FIELDS = ['resolution_by', 'response_by', 'sla_changes_at'];
export const dueSort = (sortable: readonly string[]): string | undefined =>
  DUE_FIELDS.find((field) => sortable.includes(field));

export interface Queue {
  label: string;
  query: URLSearchParams;
}

/**
 * The desk's queues, as views of the requests (saved in the address like any other): the open ones
 * (waiting on the desk; a Replied one waits on its requester) that are the signed-in agent's, that
 * nobody holds, that are overdue, and those about to be; each earliest due first.
 */
export function deskQueues(agent: Agent | undefined, sortable: readonly string[]): Queue[] {
  const due = dueSort(sortable);
  const view = (label: string, filters: Record<string, string>): Queue => ({
    label,
    query: new URLSearchParams({ ...filters, status: 'Open', ...(due ? { sort: due } : {}) }),
  });
  return [
    ...(agent ? [view('My queue', { assignee_id: String(agent.id) })] : []),
    view('Unassigned', { unassigned: 'true' }),
    view('Overdue', { sla_state: 'breached' }),
    view('At risk', { sla_state: 'at_risk' }),
  ];
}
