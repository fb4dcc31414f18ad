/** The bytes of standard, padded base64 (RFC 4648 §4) written as an encoder writes them; else undefined. */
export function decodeBase64(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'base64');
  // Node skips what is not base64 and takes any padding: only a canonical text encodes back to itself.
  return bytes.toString('base64') === text ? bytes : undefined;
}
