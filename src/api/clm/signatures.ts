import { z } from 'zod';
import { prepareSignaturePayload, type Signer } from '../../clm/signatures';
import { signableVersion } from '../../commands/clm/contracts';
import { contractState, recordSignaturePayload } from '../../commands/clm/handlers';
import { invalidField } from '../../commands/errors';
import { SIGNATURE_PROVIDERS, clmCollections, type CounterpartyContact } from '../../events/clm';
import type { StoredContract } from '../../projections/clm';
import type { ReadStore } from '../../projections/read-store';
import { ApiError } from '../kit/errors';
import type { ModuleRoute } from '../kit/module';
import { ErrorEnvelopeSchema } from '../kit/openapi';
import { workspaceRecord } from './lists';
import { freeText, shortened } from '../kit/validation';

const SignatureRequest = z
  .strictObject({
    provider: z
      .enum(SIGNATURE_PROVIDERS)
      .meta({ description: 'docusign (draft envelope) or dropbox_sign (draft, test mode)' }),
    signers: z
      .array(z.strictObject({ name: z.string().trim().min(1).max(100), email: z.email().max(254) }))
      .min(1)
      .max(10)
      .refine(
        (signers) => new Set(signers.map((signer) => signer.email.toLowerCase())).size === signers.length,
        {
          message: 'Each signer needs an email address of their own',
        },
      )
      .optional()
      .meta({ description: 'In signing order; default: the counterparty\u2019s signatory contacts' }),
    subject: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: 'Email subject (at most 100 characters)' }),
    message: freeText().optional().meta({ description: 'Email message to the signers' }),
  })
  .meta({ id: 'SignatureRequest' });
type SignatureRequest = z.infer<typeof SignatureRequest>;

const PreparedSignature = z
  .object({
    provider: z.enum(SIGNATURE_PROVIDERS),
    mode: z.literal('draft'),
    sent: z.literal(false),
    callbacks: z.literal('not processed'),
    contract_id: z.string(),
    version: z.number().int(),
    content_sha256: z.string(),
    payload_sha256: z
      .string()
      .meta({ description: 'SHA-256 of the canonical JSON of `payload`, as audited' }),
    prepared_at: z.string(),
    prepared_by: z.string(),
    signers: z.array(z.object({ name: z.string(), email: z.string() })),
    endpoint: z.object({ method: z.string(), url: z.string(), content_type: z.string(), note: z.string() }),
    payload: z.record(z.string(), z.unknown()).meta({ description: 'The provider-shaped request body' }),
  })
  .meta({ id: 'PreparedSignature' });

/** The counterparty's contacts who sign for it, in the order they are listed. */
async function defaultSigners(readStore: ReadStore, counterpartyId: string): Promise<Signer[]> {
  const text = await readStore.get(clmCollections.counterparties, counterpartyId);
  const contacts = text === null ? [] : (JSON.parse(text) as { contacts: CounterpartyContact[] }).contacts;
  return contacts.filter((contact) => contact.is_signatory).map(({ name, email }) => ({ name, email }));
}

const error = (description: string) => ({ description, schema: ErrorEnvelopeSchema });

export const signatureRoute: ModuleRoute<unknown, SignatureRequest> = {
  method: 'post',
  path: '/contracts/:id/signatures',
  operation: 'prepareSignature',
  summary: 'Prepare a reviewable e-signature payload for the contract\u2019s current version (never sent)',
  tags: ['contracts'],
  params: z.object({ id: z.string() }),
  body: SignatureRequest,
  responses: {
    201: { description: 'The prepared payload; nothing was sent to the provider', schema: PreparedSignature },
    404: error('No such contract in this workspace'),
    409: error('The contract is signed or ended, has no version yet, or changed meanwhile'),
    422: error('Invalid payload, or no signer to default to'),
  },
  async handle({ params, body, caller, commands }, services) {
    const id = params.id as string;
    const contract = await workspaceRecord<StoredContract>(
      services.readStore,
      clmCollections.contracts,
      caller,
      id,
      'Contract',
    );
    const state = await contractState(commands, id);
    if (!state || state.workspace_id !== caller.scope)
      throw new ApiError('not_found', `Contract ${shortened(id)} not found`);
    const version = signableVersion(state);
    const signers: Signer[] =
      body.signers ?? (await defaultSigners(services.readStore, contract.counterparty_id));
    if (signers.length === 0) {
      throw invalidField('signers', 'the counterparty has no signatory contact; name the signers');
    }
    const prepared = prepareSignaturePayload(body.provider, {
      contract,
      version,
      signers,
      subject: body.subject,
      message: body.message,
      prepared_by: caller.member ?? caller.actor,
    });
    const at = commands.metadata().occurred_at;
    const { outcome } = await recordSignaturePayload(commands, id, {
      workspace_id: state.workspace_id,
      provider: body.provider,
      version: version.version,
      payload_sha256: prepared.payload_sha256,
      signers,
      at,
    });
    const position = outcome.events[outcome.events.length - 1]?.position ?? 0;
    await services.runtime.waitFor(position);
    return {
      status: 201,
      headers: { 'X-Event-Position': String(position) },
      body: {
        provider: body.provider,
        mode: 'draft',
        sent: false,
        callbacks: 'not processed',
        contract_id: id,
        version: version.version,
        content_sha256: version.content_sha256,
        payload_sha256: prepared.payload_sha256,
        prepared_at: at,
        prepared_by: caller.member ?? caller.actor,
        signers,
        endpoint: prepared.endpoint,
        payload: prepared.payload,
      },
    };
  },
};
