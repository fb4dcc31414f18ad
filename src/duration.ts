const UNIT_SECONDS = { d: 86_400, h: 3_600, m: 60 } as const;

/** `90d`, `12h`, `30m`: a positive whole number of days, hours or minutes, in seconds; else undefined. */
export function durationSeconds(text: string): number | undefined {
  const match = /^([1-9]\d{0,6})([dhm])$/.exec(text);
  return match ? Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS] : undefined;
}
