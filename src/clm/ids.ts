/**
 * Ids of workspace records (`ctr_0mhq1x2c0a7f3e9b1c4`): the creation time in base 36, then random hex.
 * They sort by creation, as lists do, and unlike a suite-wide counter they do not let one workspace
 * count what the others create.
 */
export function recordId(prefix: 'cp' | 'ctr' | 'obl', at: Date, uuid: string): string {
  return `${prefix}_${at.getTime().toString(36).padStart(9, '0')}${uuid.replace(/-/g, '').slice(0, 10)}`;
}
