import { planQuestion } from '../../src/market/assistant/plan';
import { signSession, verifySession, cookieValue } from '../../src/market/session';
import { tokens } from '../../src/market/assistant/answer';

const plan = (question: string, workspace: 'pricing' | 'competitors' | 'coverage' = 'pricing') =>
  planQuestion(question, workspace, 'DE');

describe('planQuestion', () => {
  it.each([
    ['What does a dental implant cost by competitor?', 'median_price', 'competitor', 'dental-implant', null],
    ['How many clinics offer LASIK in each city?', 'competitor_count', 'city', 'lasik-both-eyes', null],
    [
      'Price index of fertility treatments by treatment type',
      'price_index',
      'treatment_type',
      null,
      'Fertility',
    ],
    ['Number of observations by country', 'observation_count', 'country', null, null],
    ['Show the collection coverage', 'coverage', 'country', null, null],
  ])('plans %j', (question, metric, dimension, treatment, type) => {
    const planned = plan(question);
    expect(planned).toMatchObject({
      ok: true,
      plan: { metric, dimension, filters: { country: 'DE', treatment, treatment_type: type } },
    });
  });

  it('takes the dimension from the workspace when the question names none', () => {
    expect(plan('Which are the cheapest?', 'competitors')).toMatchObject({
      plan: { metric: 'price_index', dimension: 'competitor' },
    });
    expect(plan('Which are the cheapest?', 'pricing')).toMatchObject({
      plan: { metric: 'price_index', dimension: 'treatment' },
    });
  });

  it('compares markets at EEA scope', () => {
    expect(plan('Median price of IVF across markets')).toMatchObject({
      plan: { scope: 'eea', dimension: 'country' },
    });
  });

  it.each([
    ['How many competitors per competitor?', /cannot be broken down by competitor/],
    ['Price index by city', /cannot be broken down by city/],
    ['Price index across markets', /Name one treatment/],
    ['What is our margin?', /no margin figures/],
    ['DROP TABLE observations', /never take query text/],
    ['Hello there', /outside what I can analyse/],
  ])('refuses %j with a reason and the allowlist', (question, reason) => {
    const planned = plan(question);
    expect(planned.ok).toBe(false);
    if (planned.ok) return;
    expect(planned.reason).toMatch(reason);
    expect(planned.reason).toMatch(/I can answer with these metrics: median price, price index/);
  });

  it('is deterministic', () => {
    expect(plan('Median price of crowns by city')).toEqual(plan('Median price of crowns by city'));
  });
});

describe('answer tokens', () => {
  it('split the answer into pieces that join back to it', () => {
    const text = 'Median price of Dental implant in Germany by competitor.\n1. Beta: 1,600.00 EUR';
    expect(tokens(text).join('')).toBe(text);
    expect(tokens(text).length).toBeGreaterThan(2);
  });
});

describe('session cookies', () => {
  const secret = 'unit-secret-0123456789abcdef012345';
  const now = new Date('2026-11-21T09:30:00Z');

  it('name the session and its user until they expire', () => {
    const session = '0123456789abcdef0123456789abcdef';
    const value = signSession(secret, 'ann', new Date('2026-11-21T10:30:00Z'), session);
    expect(verifySession(secret, value, now)).toEqual({
      ok: true,
      sessionId: session,
      userId: 'ann',
      expiresAt: new Date('2026-11-21T10:30:00Z'),
    });
    expect(verifySession(secret, value, new Date('2026-11-21T10:30:00Z'))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('fail with another secret or a changed payload', () => {
    const value = signSession(secret, 'ann', new Date('2026-11-21T10:30:00Z'));
    expect(verifySession(`${secret}x`, value, now).ok).toBe(false);
    const forged = `${Buffer.from('{"u":"root","e":9999999999}').toString('base64url')}.${value.split('.')[1]}`;
    expect(verifySession(secret, forged, now)).toEqual({ ok: false, reason: 'bad signature' });
  });

  it('are found by name in a Cookie header', () => {
    expect(cookieValue('a=1; svc_session=xyz; b=2', 'svc_session')).toBe('xyz');
    expect(cookieValue(undefined, 'svc_session')).toBeUndefined();
  });
});
