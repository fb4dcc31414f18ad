import { createHash } from 'node:crypto';
import { canonicalJson } from '../events/hash-chain';
import { describeAudit } from './audit';
import { moduleAsServed } from './kit/app';
import { describeModule } from './kit/openapi';
import { MODULES } from './modules';

/** One API of the suite, described as `/api/openapi.json` serves it (OpenAPI 3.1). */
export interface ApiDescription {
  /** The module's id (`crm`), or `audit`. */
  id: string;
  title: string;
  version: string;
  document: { info: { title: string; version: string } };
}

/**
 * Every API's description, built in-process from the module declarations, as a process with the
 * default settings serves them (public reads; `SUITE_READS=token` adds the bearer scheme to reads):
 * the ten modules in port order, then the audit API. No port is opened and no store is read.
 */
export function apiDescriptions(): ApiDescription[] {
  const settings = { apiToken: undefined, sessionSecret: '' };
  const documents = [
    ...MODULES.map((module) => ({
      id: module.id as string,
      document: describeModule(moduleAsServed(module, settings)).runtime,
    })),
    { id: 'audit', document: describeAudit().runtime },
  ];
  return documents.map(({ id, document }) => {
    const described = document as ApiDescription['document'];
    return { id, title: described.info.title, version: described.info.version, document: described };
  });
}

/** SHA-256 of a description's canonical JSON (RFC 8785): what `docs/api/digests.json` records. */
export function descriptionDigest(document: object): string {
  return createHash('sha256').update(canonicalJson(document)).digest('hex');
}
