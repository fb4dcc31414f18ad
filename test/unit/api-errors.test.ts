import { ApiError, ERROR_STATUS, toApiError } from '../../src/api/kit/errors';
import { createIdentity } from '../../src/api/kit/identity';
import { DomainError } from '../../src/commands/errors';
import { unauthorized } from '../../src/iam/principal';

const answerOf = (error: unknown) => {
  const { code, message, headers } = toApiError(error);
  return { status: ERROR_STATUS[code], code, message, headers };
};

describe("a domain error's HTTP answer", () => {
  it.each([
    [unauthorized(), 401, { 'WWW-Authenticate': 'Bearer' }],
    [
      new DomainError('invalid_token', 'Too long'),
      401,
      { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    ],
    [new DomainError('identity_provider_unavailable', 'Try later'), 503, { 'Retry-After': '5' }],
    [new DomainError('not_found', 'No event at position 9'), 404, undefined],
  ])('answers %p with its status, code, message and headers', (error, status, headers) => {
    expect(answerOf(error)).toEqual({ status, code: error.code, message: error.message, headers });
  });

  it("answers an authenticator's refusal as the 401 ApiError, with its challenge", async () => {
    const identity = createIdentity({
      authenticators: [
        async () => {
          throw unauthorized();
        },
      ],
    });
    const refused = identity.principal('Bearer some-token');
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({
      code: 'unauthorized',
      message: 'A valid bearer token is required',
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
  });

  it("keeps an authenticator's fault as it is", async () => {
    const fault = new Error('disk on fire');
    const identity = createIdentity({
      authenticators: [
        async () => {
          throw fault;
        },
      ],
    });
    await expect(identity.principal('Bearer some-token')).rejects.toBe(fault);
  });
});
