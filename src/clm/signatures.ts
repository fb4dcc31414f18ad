import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { SignatureProvider } from '../events/clm';

/**
 * Reviewable e-signature payloads for one contract version, in the shape of each provider's API.
 * Nothing here talks to a provider: the payloads are prepared for a person (or a later job) to
 * review and send, and provider callbacks are not processed.
 */

export interface Signer {
  name: string;
  email: string;
}

export interface SignatureSource {
  contract: { id: string; workspace_id: string; reference: string; title: string };
  version: { version: number; content: string; content_sha256: string };
  /** In signing order. */
  signers: readonly Signer[];
  subject?: string;
  message?: string;
  prepared_by: string;
}

export interface PreparedPayload {
  /** The request a client would make to send the draft: where, and how the payload is encoded. */
  endpoint: { method: 'POST'; url: string; content_type: string; note: string };
  payload: Record<string, unknown>;
  payload_sha256: string;
}

/** The version's text followed by a signature page carrying each signer's tags. */
export function renderDocument(
  source: SignatureSource,
  tags: (index: number) => { sign: string; date: string },
) {
  const { contract, version } = source;
  const blocks = source.signers.map((signer, index) => {
    const tag = tags(index + 1);
    return `Signed by: ${signer.name} <${signer.email}>\nSignature: ${tag.sign}\nDate: ${tag.date}`;
  });
  return [
    version.content.trimEnd(),
    '',
    '-'.repeat(72),
    `SIGNATURES: ${contract.reference}, version ${version.version} (SHA-256 ${version.content_sha256})`,
    '',
    blocks.join('\n\n'),
    '',
  ].join('\n');
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const fileName = (source: SignatureSource) => `${source.contract.reference}-v${source.version.version}`;
const defaultSubject = (source: SignatureSource) =>
  `Please sign: ${source.contract.reference} ${source.contract.title}`.slice(0, 100);

/** DocuSign eSignature v2.1 `Envelopes: create`; `status: created` keeps the envelope a draft. */
function docusignEnvelope(source: SignatureSource): Record<string, unknown> {
  const { contract, version } = source;
  const anchor = (anchorString: string) => ({
    documentId: '1',
    anchorString,
    anchorUnits: 'pixels',
    anchorXOffset: '0',
    anchorYOffset: '0',
  });
  const text = renderDocument(source, (index) => ({ sign: `/sn${index}/`, date: `/ds${index}/` }));
  const field = (name: string, value: string) => ({ name, value, show: 'false', required: 'false' });
  return {
    status: 'created',
    emailSubject: source.subject ?? defaultSubject(source),
    ...(source.message !== undefined && { emailBlurb: source.message }),
    documents: [
      { documentId: '1', name: fileName(source), fileExtension: 'txt', documentBase64: base64(text) },
    ],
    recipients: {
      signers: source.signers.map((signer, index) => ({
        email: signer.email,
        name: signer.name,
        recipientId: String(index + 1),
        routingOrder: String(index + 1),
        tabs: {
          signHereTabs: [anchor(`/sn${index + 1}/`)],
          dateSignedTabs: [anchor(`/ds${index + 1}/`)],
        },
      })),
    },
    customFields: {
      textCustomFields: [
        field('contract_id', contract.id),
        field('contract_version', String(version.version)),
        field('content_sha256', version.content_sha256),
        field('workspace_id', contract.workspace_id),
      ],
    },
  };
}

/**
 * Dropbox Sign `unclaimed_draft/create` (type `request_signature`): a draft a sender claims and
 * sends, with `test_mode` on so that even a claimed draft is not legally binding. Text tags on the
 * signature page place the fields; metadata (at most 10 keys) carries the source version.
 */
function dropboxSignDraft(source: SignatureSource): Record<string, unknown> {
  const { contract, version } = source;
  const text = renderDocument(source, (index) => ({
    sign: `[sig|req|signer${index}]`,
    date: `[date|req|signer${index}]`,
  }));
  return {
    type: 'request_signature',
    test_mode: true,
    title: `${contract.reference} ${contract.title} (v${version.version})`.slice(0, 255),
    subject: source.subject ?? defaultSubject(source),
    ...(source.message !== undefined && { message: source.message }),
    signers: source.signers.map((signer, index) => ({
      email_address: signer.email,
      name: signer.name,
      order: index,
    })),
    use_text_tags: true,
    hide_text_tags: true,
    metadata: {
      contract_id: contract.id,
      contract_reference: contract.reference,
      contract_version: String(version.version),
      content_sha256: version.content_sha256,
      workspace_id: contract.workspace_id,
      prepared_by: source.prepared_by,
    },
    files: [{ name: `${fileName(source)}.txt`, content_type: 'text/plain', content_base64: base64(text) }],
  };
}

const ENDPOINTS: Record<SignatureProvider, PreparedPayload['endpoint']> = {
  docusign: {
    method: 'POST',
    url: 'https://demo.docusign.net/restapi/v2.1/accounts/{accountId}/envelopes',
    content_type: 'application/json',
    note: 'Send the payload as the JSON body; status "created" makes a draft envelope.',
  },
  dropbox_sign: {
    method: 'POST',
    url: 'https://api.hellosign.com/v3/unclaimed_draft/create',
    content_type: 'multipart/form-data',
    note: 'files[0] is the file part (decode content_base64); every other member is a form field.',
  },
};

export function prepareSignaturePayload(
  provider: SignatureProvider,
  source: SignatureSource,
): PreparedPayload {
  const payload = provider === 'docusign' ? docusignEnvelope(source) : dropboxSignDraft(source);
  const payload_sha256 = createHash('sha256')
    .update(canonicalize(payload) as string)
    .digest('hex');
  return { endpoint: ENDPOINTS[provider], payload, payload_sha256 };
}
