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
import type { DisclosedKey, DisclosedValue } from '../privacy/disclosed-keys';
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

/** A value a disclosed key opened, as verify-bundle prints it: its pointer, and its JSON or that it was erased. */
export const disclosedLine = ({ pointer, value, erased, subject, key_id }: DisclosedValue) =>
  erased
    ? escaped`${pointer}: erased (the key ${key_id} of ${subject} is gone)`
    : `${escapeControls(pointer)}: ${jsonText(value)}`;

/** What `prove --disclose` tells the operator it put in the bundle: whose keys, never the keys. */
export function printDisclosed(disclosed: readonly DisclosedKey[] | undefined): void {
  for (const entry of disclosed ?? []) {
    const what = 'key' in entry ? 'disclosed' : 'erased, not disclosed';
    console.log(escaped`The key ${entry.key_id} of ${entry.subject}: ${what}`);
  }
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
  options: { record: RecordPath; treeSize?: number; disclose?: string; out: string },
): Promise<void> {
  try {
    const record = auditedRecord(suite.modules, options.record);
    const bundle = await recordEvidenceBundle(suite, store, {
      record,
      resource: options.record.resource,
      treeSize: options.treeSize,
      disclose: options.disclose === undefined ? undefined : suite.subjectKeys,
    });
    writeExport(options.out, `${JSON.stringify(bundle, null, 2)}\n`);
    console.log(
      escaped`Evidence of ${`${bundle.module}/${bundle.resource}/${bundle.id}`}: ${bundle.events.length} event(s) in the tree of ${bundle.tree_size} written to ${options.out}${leftOut(bundle)}`,
    );
    printDisclosed(bundle.disclosed);
  } catch (error) {
    if (!(error instanceof EvidenceError || error instanceof ApiError)) throw error;
    console.error(escapeControls(error.message));
    process.exitCode = 1;
  }
}

const CATALOG = suiteCatalog([...MODULES, ...CAPABILITIES]);

/**
 * What `suite audit verify-bundle` prints of a record bundle, checked offline: `valid`, the record as
 * the suite's own projection folds it from the bundle's events (its sealed values opened by the keys
 * the bundle discloses, sealed where it discloses none) and the values those keys open, event by
 * event; or `invalid:` and what failed.
 */
export function recordBundleVerdict(text: string, verifierKey: string): { valid: boolean; output: string } {
  const verdict = checkRecordBundle(text, verifierKey, {
    catalog: CATALOG,
    resolve: (path) => auditedRecord(MODULES, path),
  });
  if ('problem' in verdict) return { valid: false, output: escaped`invalid: ${verdict.problem}\n` };
  const { bundle, steps, disclosed } = verdict;
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
    ...disclosed.map((value) => `${escapeControls(value.place)} ${disclosedLine(value)}`),
  ];
  return { valid: true, output: `${lines.join('\n')}\n` };
}

/** `suite audit verify-bundle` of a record bundle: its verdict on stdout; exits 1 unless valid. */
export function verifyRecordBundle(text: string, verifierKey: string): void {
  const { valid, output } = recordBundleVerdict(text, verifierKey);
  process.stdout.write(output);
  if (!valid) process.exitCode = 1;
}
