/**
 * Ids of workspace records (`ctr_0mhq1x2c0a7f3e9b1c4`): the creation time in base 36, then random hex.
 * They sort by creation, as lists do, and unlike a suite-wide counter they do not let one workspace
 * count what the others create.
 */
export function recordId(prefix: 'cp' | 'ctr' | 'obl', at: Date, uuid: string): string {
  return `${prefix}_${at.getTime().toString(36).padStart(9, '0')}${randomDigits(uuid)}`;
}

/**
 * Ten random hex digits of a UUID: a version-7 UUID (the API's event ids) begins with its time, so its
 * last digits are taken; a version-4 one (the seed's) is random from the start, which keeps the demo
 * data's ids as they were.
 */
function randomDigits(uuid: string): string {
  const hex = uuid.replace(/-/g, '');
  return hex[12] === '7' ? hex.slice(-10) : hex.slice(0, 10);
}
