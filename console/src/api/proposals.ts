import { useQueries } from '@tanstack/react-query';
import { requestJson } from './client';
import { moduleHeaders } from './modules';
import type { Page } from './module-request';
import { holds, seesProposals, type Principal } from './principal';
import { usePrincipal, useSession } from './session';

export interface Proposal {
  id: string;
  module: string;
  route: string;
  path: string;
  payload: unknown;
  proposed_by: string;
  /** The proposer's name, where the module sends it. */
  proposer_name?: string | null;
  /** The person behind the proposing credential (absent from an older suite). */
  proposer_person?: string;
  status: string;
  created_at: string;
  expires_at: string;
  decided_by: string | null;
  reason: string | null;
  error: { code: string; message: string } | null;
  /** The record the write changes, as it stands now (null for a creation; absent from an older suite). */
  target?: { resource: string; id: number | string; record: Record<string, unknown> | null } | null;
  /** The payload's fields against the record's values now. */
  preview?: { field: string; before: unknown; after: unknown }[];
  /** The ids of the other pending proposals on the same record. */
  conflicts?: string[];
}

/**
 * The approver role of a module's policies is not in the proposal: the module's approver, or admin, may
 * try, unless they are the proposer's person (whichever credential either used).
 */
export const mayDecide = (principal: Principal, proposal: Proposal): boolean =>
  proposal.status === 'pending' &&
  proposal.proposed_by !== principal.id &&
  (proposal.proposer_person === undefined || proposal.proposer_person !== principal.person) &&
  (holds(principal, `${proposal.module}:approver`) || holds(principal, 'admin'));

export const proposerOf = (proposal: Proposal): string => proposal.proposer_name ?? proposal.proposed_by;

/**
 * The proposals of every module whose proposals the principal may see (`status` to narrow them), one
 * query per module, and the modules asked.
 */
export function useProposals(status?: 'pending') {
  const principal = usePrincipal();
  const { settings, moduleUrl, token } = useSession();
  const modules = settings.modules.filter((module) => seesProposals(principal, module.id));
  const query = status ? `?status=${status}&limit=200` : '?limit=200';
  const lists = useQueries({
    queries: modules.map((module) => ({
      queryKey: ['module', module.id, 'proposals', status ?? 'all'],
      queryFn: () =>
        requestJson<Page<Proposal>>(`${moduleUrl(module.id)}/api/v1/proposals${query}`, {
          token,
          headers: moduleHeaders(module.id),
        }),
    })),
  });
  return { modules, lists };
}

/** How many proposals wait for the signed-in principal's decision: the count in the navigation. */
export function useWaitingCount(): number {
  const principal = usePrincipal();
  const { lists } = useProposals('pending');
  return lists.flatMap((list) => list.data?.data ?? []).filter((proposal) => mayDecide(principal, proposal))
    .length;
}

/**
 * The other pending proposals on the same record (as the module names them, else by the record's path)
 * among those shown: deciding one may undo or refuse the other.
 */
export const conflictsOf = (proposal: Proposal, all: readonly Proposal[]): Proposal[] =>
  all.filter((other) =>
    proposal.conflicts
      ? proposal.conflicts.includes(other.id)
      : other.id !== proposal.id &&
        other.status === 'pending' &&
        other.module === proposal.module &&
        other.path === proposal.path,
  );
