import { Webhook } from 'standardwebhooks';
import { webhookDecider, type AttemptOutcome } from '../../src/webhooks/decider';
import type { WebhookEvent, WebhookEventOf } from '../../src/webhooks/events';
import { newWebhookSecret, openSecret, sealSecret } from '../../src/webhooks/secret';
import { messageId, signedHeaders } from '../../src/webhooks/signing';
import { isPrivateAddress, targetUrlProblem } from '../../src/webhooks/target-url';
import { deciderSpec } from '../support/decider-spec';

const SECRET = 'a-server-secret-of-at-least-32-bytes!';
const id = 'wh_0123456789abcdef';
const created: WebhookEventOf<'WebhookCreated'> = {
  type: 'WebhookCreated',
  data: {
    id,
    module: 'esm',
    url: 'https://tickets.example.com/hooks',
    resource: null,
    description: null,
    secret_sealed: 'whs1:sealed',
    from_position: 10,
  },
};
const outcome = (overrides: Partial<AttemptOutcome> = {}): AttemptOutcome => ({
  id,
  message_id: 'msg_1',
  cursor: 'c1',
  position: 11,
  status_code: 500,
  error: null,
  latency_ms: 3,
  delivered: false,
  ...overrides,
});
const attempt = (at: string, overrides: Partial<AttemptOutcome> = {}, from: string | null = null) => ({
  type: 'RecordAttempt' as const,
  outcome: outcome(overrides),
  at: new Date(at),
  from,
});
/** The event an attempt records, as the decider numbers and schedules it. */
const attempted = (
  number: number,
  at: string,
  next: string | null,
  overrides: Partial<AttemptOutcome> = {},
): WebhookEvent => ({
  type: 'WebhookDeliveryAttempted',
  data: { ...outcome(overrides), attempt: number, at, next_attempt_at: next },
});

describe('a webhook', () => {
  const given = deciderSpec(webhookDecider);

  it('is created once', () => {
    given([]).when({ type: 'CreateWebhook', webhook: created.data }).then([created]);
    given([created])
      .when({ type: 'CreateWebhook', webhook: created.data })
      .thenThrows({ code: 'already_exists' });
  });

  it('numbers the attempts of a change and waits 5 s, then twice as long after each failure', () => {
    given([created])
      .when(attempt('2026-11-21T09:30:00Z'))
      .then([attempted(1, '2026-11-21T09:30:00Z', '2026-11-21T09:30:05Z')]);
    given([created, attempted(1, '2026-11-21T09:30:00Z', '2026-11-21T09:30:05Z')])
      .when(attempt('2026-11-21T09:30:05Z'))
      .then([attempted(2, '2026-11-21T09:30:05Z', '2026-11-21T09:30:15Z')]);
  });

  it('waits an hour at most between two attempts', () => {
    const failures = Array.from({ length: 12 }, (_, index) =>
      attempted(index + 1, '2026-11-21T09:30:00Z', null),
    );
    given([created, ...failures])
      .when(attempt('2026-11-21T12:00:00Z'))
      .then([attempted(13, '2026-11-21T12:00:00Z', '2026-11-21T13:00:00Z')]);
  });

  it('counts a delivered change done, and the next change from its first attempt', () => {
    const failed = attempted(1, '2026-11-21T09:30:00Z', '2026-11-21T09:30:05Z');
    given([created, failed])
      .when(attempt('2026-11-21T09:30:05Z', { status_code: 200, delivered: true }))
      .then([attempted(2, '2026-11-21T09:30:05Z', null, { status_code: 200, delivered: true })]);
    const delivered = attempted(2, '2026-11-21T09:30:05Z', null, { status_code: 200, delivered: true });
    given([created, failed, delivered])
      .when(attempt('2026-11-21T09:31:00Z', { message_id: 'msg_2', cursor: 'c2' }, 'c1'))
      .then([
        attempted(1, '2026-11-21T09:31:00Z', '2026-11-21T09:31:05Z', { message_id: 'msg_2', cursor: 'c2' }),
      ]);
  });

  it('is disabled by the failure that ends 24 hours of failing to deliver a change', () => {
    const first = attempted(1, '2026-11-21T09:30:00Z', '2026-11-21T09:30:05Z');
    given([created, first])
      .when(attempt('2026-11-22T09:29:59Z'))
      .then([attempted(2, '2026-11-22T09:29:59Z', '2026-11-22T09:30:09Z')]);
    given([created, first])
      .when(attempt('2026-11-22T09:30:00Z', { status_code: null, error: 'connect ECONNREFUSED' }))
      .then([
        attempted(2, '2026-11-22T09:30:00Z', null, { status_code: null, error: 'connect ECONNREFUSED' }),
        {
          type: 'WebhookDisabled',
          data: {
            id,
            reason:
              'change c1 not delivered after 2 attempts since 2026-11-21T09:30:00Z: connect ECONNREFUSED',
          },
        },
      ]);
  });

  it('records nothing more once disabled, until a redelivery takes it up again', () => {
    const disabled: WebhookEvent = { type: 'WebhookDisabled', data: { id, reason: 'gone' } };
    given([created, disabled]).when(attempt('2026-11-22T10:00:00Z')).then([]);
    given([created, disabled]).when({ type: 'DisableWebhook', id, reason: 'again' }).then([]);
    const redelivery: WebhookEvent = { type: 'WebhookRedeliveryRequested', data: { id, after: null } };
    given([created, disabled]).when({ type: 'RequestRedelivery', id, after: null }).then([redelivery]);
    given([created, disabled, redelivery])
      .when(attempt('2026-11-22T10:00:00Z'))
      .then([attempted(1, '2026-11-22T10:00:00Z', '2026-11-22T10:00:05Z')]);
  });

  it('does not record an attempt made from a cursor a redelivery has since moved', () => {
    const delivered = attempted(1, '2026-11-21T09:30:00Z', null, { status_code: 200, delivered: true });
    const back: WebhookEvent = { type: 'WebhookRedeliveryRequested', data: { id, after: 'c0' } };
    const next = { message_id: 'msg_2', cursor: 'c2', status_code: 200, delivered: true };
    given([created, delivered, back])
      .when(attempt('2026-11-21T09:31:00Z', next, 'c1'))
      .then([]);
    given([created, delivered, back])
      .when(attempt('2026-11-21T09:31:00Z', { ...next, cursor: 'c1', message_id: 'msg_1' }, 'c0'))
      .then([
        attempted(1, '2026-11-21T09:31:00Z', null, { cursor: 'c1', status_code: 200, delivered: true }),
      ]);
  });

  it('refuses everything but the record of an attempt in flight once deleted', () => {
    const deleted: WebhookEvent = { type: 'WebhookDeleted', data: { id } };
    given([created]).when({ type: 'DeleteWebhook', id }).then([deleted]);
    given([created, deleted]).when({ type: 'DeleteWebhook', id }).thenThrows({ code: 'not_found' });
    given([created, deleted]).when(attempt('2026-11-22T10:00:00Z')).then([]);
    given([created, deleted])
      .when({ type: 'RequestRedelivery', id, after: 'c1' })
      .thenThrows({ code: 'not_found' });
  });
});

describe('a webhook secret', () => {
  it('is sealed for its webhook under the server secret, and opened only so', () => {
    const secret = newWebhookSecret();
    const sealed = sealSecret(SECRET, id, secret);
    expect(sealed).not.toContain(secret.slice('whsec_'.length));
    expect(openSecret(SECRET, id, sealed)).toBe(secret);
    expect(() => openSecret('another-server-secret-of-32-bytes!!', id, sealed)).toThrow();
    expect(() => openSecret(SECRET, 'wh_fedcba9876543210', sealed)).toThrow();
  });

  it('signs as the standardwebhooks package verifies', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ type: 'esm.requests.upsert', timestamp: '2026-11-21T09:30:00Z', data: {} });
    const message = messageId(id, { resource: 'requests', id: 42, position: 11 });
    const now = new Date();
    const headers = signedHeaders(secret, message, now, body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign(message, now, body));
    expect(messageId(id, { resource: 'requests', id: 42, position: 11 })).toBe(message);
    expect(messageId(id, { resource: 'requests', id: 43, position: 11 })).not.toBe(message);
  });
});

describe('a webhook target', () => {
  it('is refused in private, loopback, link-local and unique-local ranges', () => {
    for (const address of [
      '10.0.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd12::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ]) {
      expect([address, isPrivateAddress(address)]).toEqual([address, true]);
    }
    for (const address of ['93.184.215.14', '172.32.0.1', '2606:4700::1111', '::ffff:93.184.215.14']) {
      expect([address, isPrivateAddress(address)]).toEqual([address, false]);
    }
  });

  it('is checked as written and as the DNS answers for its host', async () => {
    const resolve = async (host: string) =>
      host === 'inside.example.com' ? ['93.184.215.14', '10.1.1.1'] : ['93.184.215.14'];
    expect(
      await targetUrlProblem('https://outside.example.com/hooks', { allowPrivate: false, resolve }),
    ).toBeUndefined();
    expect(
      await targetUrlProblem('https://inside.example.com/hooks', { allowPrivate: false, resolve }),
    ).toMatch(/resolves to 10\.1\.1\.1/);
    expect(
      await targetUrlProblem('https://inside.example.com/hooks', { allowPrivate: true, resolve }),
    ).toBeUndefined();
    expect(
      await targetUrlProblem('https://user:pw@outside.example.com/', { allowPrivate: false, resolve }),
    ).toMatch(/credentials/);
    expect(await targetUrlProblem('file:///etc/passwd', { allowPrivate: true, resolve })).toMatch(
      /http or https/,
    );
  });
});
