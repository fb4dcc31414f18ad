import { loadConfig } from '../../src/config';
import { generateSigningKey } from '../../src/log-proofs/note';

describe('the configuration of signed checkpoints', () => {
  it('names the log suite.local/log and generates the key unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ logOrigin: 'suite.local/log', signingKey: undefined });
    expect(loadConfig({ SUITE_SIGNING_KEY: '' }).signingKey).toBeUndefined();
  });

  it('takes a log origin and a signing key', () => {
    const key = generateSigningKey('audit.example.com/log');
    const config = loadConfig({ SUITE_LOG_ORIGIN: 'audit.example.com/log', SUITE_SIGNING_KEY: key });
    expect(config).toMatchObject({ logOrigin: 'audit.example.com/log', signingKey: key });
  });

  it('refuses an origin that could not name a key: empty, with spaces, a plus or a newline', () => {
    for (const origin of ['', 'suite log', 'suite+log', 'suite\nlog']) {
      expect(() => loadConfig({ SUITE_LOG_ORIGIN: origin })).toThrow(/SUITE_LOG_ORIGIN: must be a log name/);
    }
  });

  it('refuses a signing key that is not one, naming the variable and never the value', () => {
    const key = generateSigningKey('suite.local/log');
    const verifierKeyLike = key.slice('PRIVATE+KEY+'.length);
    const wrongId = key.replace(/\+[0-9a-f]{8}\+/, '+00000000+');
    for (const bad of [verifierKeyLike, wrongId, `${key} `, 'secret-but-no-key']) {
      const load = () => loadConfig({ SUITE_SIGNING_KEY: bad });
      expect(load).toThrow(/SUITE_SIGNING_KEY: must/);
      expect(load).not.toThrow(bad.trim().slice(-16));
    }
  });
});
