import { prepareSignaturePayload, renderDocument, type SignatureSource } from '../../src/clm/signatures';

const source: SignatureSource = {
  contract: {
    id: 'ctr_1',
    workspace_id: 'ws-acme',
    reference: 'ACME-MSA-2026-001',
    title: 'MSA with Nordwind',
  },
  version: { version: 2, content: 'The agreed text.\n', content_sha256: 'c'.repeat(64) },
  signers: [
    { name: 'Henrik Brandt', email: 'henrik@nordwind.example' },
    { name: 'Julia Hartmann', email: 'julia@acme.example' },
  ],
  prepared_by: 'm-acme-owner',
};

const documentOf = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

describe('signature payloads', () => {
  it('renders the version text followed by one signature block per signer', () => {
    const text = renderDocument(source, (index) => ({ sign: `<s${index}>`, date: `<d${index}>` }));
    expect(text).toBe(
      [
        'The agreed text.',
        '',
        '-'.repeat(72),
        `SIGNATURES: ACME-MSA-2026-001, version 2 (SHA-256 ${'c'.repeat(64)})`,
        '',
        'Signed by: Henrik Brandt <henrik@nordwind.example>\nSignature: <s1>\nDate: <d1>',
        '',
        'Signed by: Julia Hartmann <julia@acme.example>\nSignature: <s2>\nDate: <d2>',
        '',
      ].join('\n'),
    );
  });

  it('anchors each DocuSign signer\u2019s tabs on their own tags and routes in the given order', () => {
    const { payload } = prepareSignaturePayload('docusign', source);
    const signers = (payload.recipients as { signers: Record<string, unknown>[] }).signers;
    expect(signers.map((signer) => [signer.recipientId, signer.routingOrder])).toEqual([
      ['1', '1'],
      ['2', '2'],
    ]);
    expect(signers[1]).toMatchObject({ tabs: { signHereTabs: [{ anchorString: '/sn2/' }] } });
    const text = documentOf((payload.documents as { documentBase64: string }[])[0]!.documentBase64);
    expect(text).toContain('Signature: /sn2/');
    expect(payload.emailSubject).toBe('Please sign: ACME-MSA-2026-001 MSA with Nordwind');
    expect(payload).not.toHaveProperty('emailBlurb');
  });

  it('keeps Dropbox Sign in test mode, with at most 10 metadata keys and text tags per signer', () => {
    const { payload, endpoint } = prepareSignaturePayload('dropbox_sign', {
      ...source,
      message: 'As agreed.',
    });
    expect(endpoint.content_type).toBe('multipart/form-data');
    expect(payload).toMatchObject({ test_mode: true, type: 'request_signature', message: 'As agreed.' });
    expect(Object.keys(payload.metadata as object).length).toBeLessThanOrEqual(10);
    const text = documentOf((payload.files as { content_base64: string }[])[0]!.content_base64);
    expect(text).toContain('[sig|req|signer1]');
    expect(text).toContain('[date|req|signer2]');
  });

  it('hashes the canonical payload: the same source gives the same hash, another signer another', () => {
    const first = prepareSignaturePayload('docusign', source);
    expect(prepareSignaturePayload('docusign', source).payload_sha256).toBe(first.payload_sha256);
    const other = prepareSignaturePayload('docusign', { ...source, signers: source.signers.slice(1) });
    expect(other.payload_sha256).not.toBe(first.payload_sha256);
    expect(first.payload_sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
