import { isCosignerKey } from './cosignature';
import type { WitnessConfig } from './witnessing';

/**
 * SUITE_WITNESSES: `<url> <verifier key>` per witness, separated by commas; empty, none. Answers the
 * witnesses, or what is wrong with the text.
 */
export function parseWitnesses(text: string): WitnessConfig[] | string {
  const witnesses: WitnessConfig[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const [url = '', key = '', ...rest] = entry.split(/\s+/);
    if (rest.length > 0 || !/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)) {
      return 'must be "<http(s) URL> <witness verifier key>" per witness, separated by commas';
    }
    if (!isCosignerKey(key)) {
      return `the key of ${url} must be a witness's verifier key <name>+<key id>+base64(0x04 ‖ public key)`;
    }
    if (witnesses.some((witness) => witness.key === key)) return `the key of ${url} is given twice`;
    witnesses.push({ url, key });
  }
  return witnesses;
}
