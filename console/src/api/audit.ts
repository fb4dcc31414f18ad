import { request, requestJson } from './client';

export interface LogEvent {
  event_id: string;
  stream: string;
  revision: number;
  position: number;
  type: string;
  schema_version: number;
  /** As the log stores it, what `hash` covers: personal values sealed (`pd1:…`). */
  data: Record<string, unknown>;
  /** Each sealed value of `data` opened (or read as erased), by JSON pointer (`/reason`). */
  opened?: Record<string, unknown>;
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

/**
 * The evidence that an event is in the log, as `suite audit prove` writes it and `suite audit
 * verify-bundle` checks offline: the event as stored, its inclusion proof and the signed checkpoint.
 */
export const evidenceBundle = (auditUrl: string, token: string | undefined, position: number) =>
  requestJson<{ format: string }>(`${auditUrl}/api/v1/evidence?position=${position}`, { token });

/** Hands a JSON document to the browser as a file download. */
export function download(name: string, document: unknown): void {
  const url = URL.createObjectURL(
    new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' }),
  );
  const link = Object.assign(window.document.createElement('a'), { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
