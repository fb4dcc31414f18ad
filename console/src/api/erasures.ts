import { useQueryClient } from '@tanstack/react-query';
import { ApiError, requestJson } from './client';
import { useSession } from './session';

export interface Erasure {
  id: number;
  subject: string;
  reason: string;
  erased_at: string;
  erased_by: string;
}

export const MAX_REASON = 500;

/**
 * The record pages whose record is a data subject of its own (docs/PERSONAL-DATA.md): the kind of
 * subject each is, by module and resource.
 */
const SUBJECT_KINDS: Readonly<Record<string, string>> = {
  'hrm/employees': 'hrm.employee',
  'hrm/candidates': 'hrm.candidate',
  'crm/contacts': 'crm.contact',
  'crm/leads': 'crm.lead',
  'lms/learners': 'lms.learner',
  'cms/submissions': 'cms.submission',
  'mail/contacts': 'mail.contact',
};

/** The data subject a record page shows (`hrm.employee-42`), if its record is one. */
export function subjectOfRecord(module: string, resource: string, id: string): string | undefined {
  const kind = SUBJECT_KINDS[`${module}/${resource}`];
  return kind && /^\d+$/.test(id) ? `${kind}-${id}` : undefined;
}

/** The nearest known subjects a refusal names (`unknown_subject`), if any. */
export function nearestSubjects(error: unknown): string[] {
  if (!(error instanceof ApiError) || error.code !== 'unknown_subject') return [];
  const { nearest } = error.details as { nearest?: unknown };
  return Array.isArray(nearest) ? nearest.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * Erases a data subject (`POST /api/v1/erasures` on the audit API); then every read that held the
 * subject's personal data is read again, now erased.
 */
export function useErase(): (request: { subject: string; reason: string }) => Promise<Erasure> {
  const { auditUrl, token } = useSession();
  const queryClient = useQueryClient();
  return async (body) => {
    const erasure = await requestJson<Erasure>(`${auditUrl}/api/v1/erasures`, {
      method: 'POST',
      token,
      body,
    });
    await queryClient.invalidateQueries();
    return erasure;
  };
}
