import { z } from 'zod';
import { defineEvent, type EventsOf } from '../../events/catalog';
import { ROLES } from '../../iam/principal';
import { SUBJECT } from '../../privacy/erasures';
import { placedIn } from '../../privacy/personal-places';

/** `prp_`, the proposal time in base 36, then ten random hex digits: ids sort by creation. */
export const PROPOSAL_ID = /^prp_[0-9a-z]{9}[0-9a-f]{10}$/;

const id = z.string().regex(PROPOSAL_ID);

/** Why a proposal was withdrawn: its proposer's key was revoked, or expired. */
export const WITHDRAWAL_REASONS = ['proposer_revoked', 'expired'] as const;
export type WithdrawalReason = (typeof WITHDRAWAL_REASONS)[number];
const actor = z.string().min(1).max(300);

/** Who a held-back write acts for once it is applied: the proposer, as the access check named them. */
const ProposedCaller = z.object({
  actor,
  actorName: z.string().max(300).optional(),
  scope: z.string().max(300).optional(),
  member: z.string().max(300).optional(),
  /** The proposer's person; proposals made before persons were recorded have none (the actor stands for it). */
  person: z.string().max(300).optional(),
});

/**
 * Where a copied document (the body, the result) holds personal data, and whose: sealed under that
 * subject's key like a declared field (see `personalPlaces`), so that it reads erased with the rest.
 */
const PersonalData = z
  .array(z.object({ subject: z.string().regex(SUBJECT), field: z.string().max(1000) }))
  .max(1000)
  .optional();

export const proposalEvents = [
  defineEvent(
    'ChangeProposed',
    z.object({
      id,
      module: z.string(),
      /** The route as the module's description names it: `PATCH /api/v1/leave/{id}`. */
      route: z.string(),
      /** The path as it was requested: `/api/v1/leave/404`. */
      path: z.string(),
      params: z.record(z.string(), z.string()),
      /** The body, as the route's schema validated it. */
      payload: z.unknown(),
      caller: ProposedCaller,
      approver_role: z.enum(ROLES),
      expires_at: z.string(),
      /** Where the body holds personal data: the values the write it holds would seal. */
      personal_data: PersonalData,
    }),
    { personalIn: ({ personal_data = [] }) => placedIn('payload', personal_data) },
  ),
  /** An approver took the decision; the write follows (`ChangeApplied`, or `ChangeFailed`). */
  defineEvent(
    'ChangeApproved',
    z.object({
      id,
      approved_by: actor,
      /** Absent on approvals recorded before persons were. */
      approver_person: z.string().max(300).optional(),
      /** The HR employee the approver is; `null`: none (absent before persons were recorded). */
      approver_employee: z.number().int().positive().nullable().optional(),
    }),
  ),
  defineEvent(
    'ChangeApplied',
    z.object({
      id,
      result: z.unknown(),
      position: z.number().int(),
      /** Where the result holds personal data: values the write read or appended, sealed there. */
      personal_data: PersonalData,
    }),
    { personalIn: ({ personal_data = [] }) => placedIn('result', personal_data) },
  ),
  defineEvent('ChangeFailed', z.object({ id, error: z.object({ code: z.string(), message: z.string() }) })),
  defineEvent('ChangeRejected', z.object({ id, rejected_by: actor, reason: z.string().max(1000) })),
  defineEvent('ChangeExpired', z.object({ id })),
  /** The proposer's credential ended before a decision: nobody stands behind the proposal any more. */
  defineEvent('ChangeWithdrawn', z.object({ id, reason: z.enum(WITHDRAWAL_REASONS) })),
] as const;

export type ProposalEvent = EventsOf<typeof proposalEvents>;
export type ProposalEventOf<Type extends ProposalEvent['type']> = Extract<ProposalEvent, { type: Type }>;
export type ProposedCaller = z.infer<typeof ProposedCaller>;

export const proposalStream = (proposalId: string) => `approvals.proposal-${proposalId}`;
