import { request, requestJson } from './client';
import { parseCheckpoint } from './checkpoint';

export interface LogEvent {
  event_id: string;
  stream: string;
  revision: number;
  position: number;
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: {
    actor: string;
    actor_name?: string;
    occurred_at: string;
    approved_by?: string;
    proposed_by?: string;
  };
  prev_hash: string;
  hash: string;
}

export async function latestCheckpoint(auditUrl: string, token: string | undefined): Promise<string> {
  return (
    await request(`${auditUrl}/api/v1/checkpoint`, { token, headers: { Accept: 'text/plain' } })
  ).text();
}

interface InclusionProof {
  index: number;
  tree_size: number;
  position: number;
  leaf_hash: string;
  hashes: string[];
  event: LogEvent;
}

/**
 * The evidence that an event is in the log, in the form `suite audit verify-bundle` checks offline:
 * the event, its inclusion proof and the signed checkpoint of the tree the proof is for.
 */
export async function evidenceBundle(auditUrl: string, token: string | undefined, position: number) {
  const checkpoint = await latestCheckpoint(auditUrl, token);
  const { size } = parseCheckpoint(checkpoint);
  const proof = await requestJson<InclusionProof>(
    `${auditUrl}/api/v1/proofs/inclusion?position=${position}&tree_size=${size}`,
    { token },
  );
  return {
    format: 'suite-inclusion-evidence/1',
    event: proof.event,
    index: proof.index,
    tree_size: proof.tree_size,
    leaf_hash: proof.leaf_hash,
    hashes: proof.hashes,
    checkpoint,
  };
}

/** Hands a JSON document to the browser as a file download. */
export function download(name: string, document: unknown): void {
  const url = URL.createObjectURL(
    new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' }),
  );
  const link = Object.assign(window.document.createElement('a'), { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
