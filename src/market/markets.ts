/** The 30 EEA markets (EU 27 plus Iceland, Liechtenstein and Norway) and their ISO 4217 currencies. */
export const MARKETS = {
  AT: { name: 'Austria', currency: 'EUR' },
  BE: { name: 'Belgium', currency: 'EUR' },
  BG: { name: 'Bulgaria', currency: 'EUR' },
  CY: { name: 'Cyprus', currency: 'EUR' },
  CZ: { name: 'Czechia', currency: 'CZK' },
  DE: { name: 'Germany', currency: 'EUR' },
  DK: { name: 'Denmark', currency: 'DKK' },
  EE: { name: 'Estonia', currency: 'EUR' },
  ES: { name: 'Spain', currency: 'EUR' },
  FI: { name: 'Finland', currency: 'EUR' },
  FR: { name: 'France', currency: 'EUR' },
  GR: { name: 'Greece', currency: 'EUR' },
  HR: { name: 'Croatia', currency: 'EUR' },
  HU: { name: 'Hungary', currency: 'HUF' },
  IE: { name: 'Ireland', currency: 'EUR' },
  IS: { name: 'Iceland', currency: 'ISK' },
  IT: { name: 'Italy', currency: 'EUR' },
  LI: { name: 'Liechtenstein', currency: 'CHF' },
  LT: { name: 'Lithuania', currency: 'EUR' },
  LU: { name: 'Luxembourg', currency: 'EUR' },
  LV: { name: 'Latvia', currency: 'EUR' },
  MT: { name: 'Malta', currency: 'EUR' },
  NL: { name: 'Netherlands', currency: 'EUR' },
  NO: { name: 'Norway', currency: 'NOK' },
  PL: { name: 'Poland', currency: 'PLN' },
  PT: { name: 'Portugal', currency: 'EUR' },
  RO: { name: 'Romania', currency: 'RON' },
  SE: { name: 'Sweden', currency: 'SEK' },
  SI: { name: 'Slovenia', currency: 'EUR' },
  SK: { name: 'Slovakia', currency: 'EUR' },
} as const;

export type MarketCode = keyof typeof MARKETS;
export const MARKET_CODES = Object.keys(MARKETS) as [MarketCode, ...MarketCode[]];

/** ISO 4217 minor units (decimal places) of the markets' currencies. */
export const MINOR_UNITS: Readonly<Record<string, number>> = {
  EUR: 2,
  CZK: 2,
  DKK: 2,
  HUF: 2,
  ISK: 0,
  CHF: 2,
  NOK: 2,
  PLN: 2,
  RON: 2,
  SEK: 2,
};

export function isMarketCode(value: string): value is MarketCode {
  return Object.hasOwn(MARKETS, value);
}

/** `de` -> `DE`; anything that is not one of the 30 codes -> undefined. */
export function marketCode(value: string): MarketCode | undefined {
  const upper = value.trim().toUpperCase();
  return isMarketCode(upper) ? upper : undefined;
}

/** Whether `price` is positive and has no more decimals than the currency's minor units. */
export function respectsMinorUnits(price: number, currency: string): boolean {
  const units = MINOR_UNITS[currency];
  if (units === undefined || !Number.isFinite(price)) return false;
  const scaled = price * 10 ** units;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

/** A price in the currency's minor units (cents), the integer the medians are computed on. */
export const toMinor = (price: number, currency: string): number =>
  Math.round(price * 10 ** (MINOR_UNITS[currency] ?? 2));

export const fromMinor = (minor: number, currency: string): number =>
  minor / 10 ** (MINOR_UNITS[currency] ?? 2);
