import { z } from 'zod';

/** A write held back for approval, as the proposal routes (and a held-back write's 202) answer it. */
export const ProposalSchema = z
  .object({
    id: z.string(),
    module: z.string(),
    route: z
      .string()
      .meta({ description: 'The route as the description names it: `PATCH /api/v1/leave/{id}`' }),
    path: z.string(),
    payload: z.unknown().meta({ description: 'The body the write was sent with' }),
    proposed_by: z.string(),
    proposer_person: z.string().meta({ description: 'The person behind the proposing credential' }),
    approver_person: z
      .string()
      .nullable()
      .meta({ description: 'The person behind the approving credential' }),
    status: z.enum(['pending', 'approved', 'applied', 'rejected', 'failed', 'expired', 'withdrawn']),
    created_at: z.string(),
    updated_at: z
      .string()
      .meta({ description: 'When the latest event that changed the proposal was recorded' }),
    expires_at: z.string(),
    decided_by: z.string().nullable(),
    reason: z
      .string()
      .nullable()
      .meta({ description: 'Why it was rejected, or withdrawn (`proposer_revoked`, `expired`)' }),
    result: z.unknown().meta({ description: 'The record the write answered once applied' }),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: 'Proposal' });
