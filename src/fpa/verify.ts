import { GENERATOR_VERSION, generatePlan, outputSha256, type PlanInputs } from './plan';
import type { PlanOutput } from './output';

/** A recorded generation, as PlanGenerated carries it. */
export interface RecordedGeneration {
  scenario: string;
  generator_version: string;
  inputs: PlanInputs;
  output_sha256: string;
  output: PlanOutput;
}

export interface GenerationCheck {
  scenario: string;
  position: number;
  /** `ok`: both hashes match; `unverifiable`: another generator version recorded it. */
  result: 'ok' | 'mismatch' | 'unverifiable';
  recorded_sha256: string;
  /** Hash of the output as stored in the event. */
  stored_output_sha256: string;
  /** Hash of the output recomputed from the recorded inputs, when this build runs the same generator. */
  recomputed_sha256: string | null;
}

/**
 * What an auditor checks of one generation: that the stored output still has the recorded hash, and
 * that recomputing the plan from the recorded inputs gives that hash again.
 */
export function checkGeneration(generation: RecordedGeneration, position: number): GenerationCheck {
  const stored = outputSha256(generation.output);
  const recomputed =
    generation.generator_version === GENERATOR_VERSION ? outputSha256(generatePlan(generation.inputs)) : null;
  const matches = stored === generation.output_sha256 && (recomputed ?? generation.output_sha256) === stored;
  return {
    scenario: generation.scenario,
    position,
    result: !matches ? 'mismatch' : recomputed === null ? 'unverifiable' : 'ok',
    recorded_sha256: generation.output_sha256,
    stored_output_sha256: stored,
    recomputed_sha256: recomputed,
  };
}
