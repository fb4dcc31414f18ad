import { InvalidArgumentError } from 'commander';
import { auditedRecord, type RecordPath } from '../api/audit/records';
import { ApiError } from '../api/kit/errors';
import { MODULES } from '../api/modules';
import { suiteCatalog } from '../events/catalog';
import { EvidenceError } from '../log-proofs/evidence';
import {
  checkRecordBundle,
  finalRecord,
  recordEvidenceBundle,
  type RecordEvidenceBundle,
} from '../log-proofs/record-evidence';
import type { TreeStore } from '../log-proofs/tree-store';
import { CAPABILITIES, type Suite } from '../main';
import { writeExport } from '../private-files';
import { escapeControls, escaped, jsonText } from './terminal';

/** `--record MODULE/RESOURCE/ID`: the record as the audit API names it (`hrm/leave/7`). */
export function recordArgument(value: string): RecordPath {
  const [module, resource, id, ...rest] = value.split('/');
  if (!module || !resource || !id || rest.length > 0) {
    throw new InvalidArgumentError('must be MODULE/RESOURCE/ID, as hrm/leave/7');
  }
  return { module, resource, id };
}

const leftOut = ({ not_yet_covered: left }: RecordEvidenceBundle) =>
  left ? `; ${left} later event(s) the checkpoint does not cover yet were left out` : '';

/**
 * `suite audit prove --record`: writes the evidence of the record's story against the kept checkpoint
 * of `treeSize` leaves (default: the latest, waiting up to 2 s for one that covers the story).
 */
export async function proveRecord(
  suite: Suite,
  store: TreeStore,
  options: { record: RecordPath; treeSize?: number; out: string },
): Promise<void> {
  try {
    const record = auditedRecord(suite.modules, options.record);
    const bundle = await recordEvidenceBundle(suite, store, {
      record,
      resource: options.record.resource,
      treeSize: options.treeSize,
    });
    writeExport(options.out, `${JSON.stringify(bundle, null, 2)}\n`);
    console.log(
      escaped`Evidence of ${`${bundle.module}/${bundle.resource}/${bundle.id}`}: ${bundle.events.length} event(s) in the tree of ${bundle.tree_size} written to ${options.out}${leftOut(bundle)}`,
    );
  } catch (error) {
    if (!(error instanceof EvidenceError || error instanceof ApiError)) throw error;
    console.error(escapeControls(error.message));
    process.exitCode = 1;
  }
}

const CATALOG = suiteCatalog([...MODULES, ...CAPABILITIES]);

/**
 * What `suite audit verify-bundle` prints of a record bundle, checked offline: `valid` and the record
 * as the suite's own projection folds it from the bundle's events (sealed values stay sealed: the
 * bundle holds no key), or `invalid:` and what failed.
 */
export function recordBundleVerdict(text: string, verifierKey: string): { valid: boolean; output: string } {
  const verdict = checkRecordBundle(text, verifierKey, {
    catalog: CATALOG,
    resolve: (path) => auditedRecord(MODULES, path),
  });
  if ('problem' in verdict) return { valid: false, output: escaped`invalid: ${verdict.problem}\n` };
  const { bundle, steps } = verdict;
  const lines = [
    'valid',
    escaped`${`${bundle.module}/${bundle.resource}/${bundle.id}`}, folded from ${bundle.events.length} event(s) proven in the tree of ${bundle.tree_size} leaves${leftOut(bundle)}:`,
    jsonText(finalRecord(verdict), 2),
    ...steps.flatMap((step, at) =>
      step.error === undefined
        ? []
        : [
            escaped`the projection could not apply the event at index ${bundle.events[at]?.index}: ${step.error}`,
          ],
    ),
  ];
  return { valid: true, output: `${lines.join('\n')}\n` };
}

/** `suite audit verify-bundle` of a record bundle: its verdict on stdout; exits 1 unless valid. */
export function verifyRecordBundle(text: string, verifierKey: string): void {
  const { valid, output } = recordBundleVerdict(text, verifierKey);
  process.stdout.write(output);
  if (!valid) process.exitCode = 1;
}
