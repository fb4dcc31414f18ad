import type { MarketCode } from '../market/markets';

/** How far collection has got in each market of the demo data (markets not listed: not started). */
export const DEMO_DEPTH: Partial<Record<MarketCode, 'complete' | 'partial'>> = {
  DE: 'complete',
  FR: 'complete',
  NL: 'complete',
  ES: 'complete',
  IT: 'complete',
  AT: 'complete',
  BE: 'complete',
  SE: 'complete',
  PL: 'complete',
  IE: 'complete',
  PT: 'partial',
  DK: 'partial',
  FI: 'partial',
  CZ: 'partial',
  HU: 'partial',
  RO: 'partial',
  GR: 'partial',
  NO: 'partial',
  SK: 'partial',
  SI: 'partial',
  HR: 'partial',
  LU: 'partial',
  BG: 'partial',
  IS: 'partial',
};

/**
 * Generator parameters, not figures: a market's price level against Germany (1.0) and the units of
 * its currency the generator uses per euro of that level. The demo prices are drawn from them.
 */
export const DEMO_PRICE_LEVEL: Partial<Record<MarketCode, { level: number; perEuro: number }>> = {
  DE: { level: 1, perEuro: 1 },
  FR: { level: 0.97, perEuro: 1 },
  NL: { level: 1.06, perEuro: 1 },
  ES: { level: 0.82, perEuro: 1 },
  IT: { level: 0.9, perEuro: 1 },
  AT: { level: 1.04, perEuro: 1 },
  BE: { level: 1.02, perEuro: 1 },
  SE: { level: 1.05, perEuro: 11 },
  PL: { level: 0.58, perEuro: 4.3 },
  IE: { level: 1.15, perEuro: 1 },
  PT: { level: 0.74, perEuro: 1 },
  DK: { level: 1.2, perEuro: 7.5 },
  FI: { level: 1.08, perEuro: 1 },
  CZ: { level: 0.66, perEuro: 25 },
  HU: { level: 0.52, perEuro: 400 },
  RO: { level: 0.5, perEuro: 5 },
  GR: { level: 0.72, perEuro: 1 },
  NO: { level: 1.28, perEuro: 11.5 },
  SK: { level: 0.64, perEuro: 1 },
  SI: { level: 0.78, perEuro: 1 },
  HR: { level: 0.68, perEuro: 1 },
  LU: { level: 1.18, perEuro: 1 },
  BG: { level: 0.45, perEuro: 1 },
  IS: { level: 1.3, perEuro: 150 },
};

/** Typical German list prices in euros, the generator's base per treatment code. */
export const DEMO_BASE_PRICE: Readonly<Record<string, number>> = {
  'dental-implant': 1450,
  'dental-crown': 680,
  'root-canal': 460,
  'teeth-whitening': 360,
  'botulinum-one-area': 260,
  'filler-1ml': 330,
  'chemical-peel': 170,
  'laser-hair-legs': 210,
  'laser-resurfacing': 620,
  'lasik-both-eyes': 2300,
  'cataract-one-eye': 1950,
  'ivf-cycle': 4100,
};

/** Cities of the markets with data, with their coordinates (centre, to two decimals). */
export const DEMO_CITIES: Partial<Record<MarketCode, readonly [string, number, number][]>> = {
  DE: [
    ['Berlin', 52.52, 13.4],
    ['Hamburg', 53.55, 9.99],
    ['Munich', 48.14, 11.58],
    ['Cologne', 50.94, 6.96],
    ['Frankfurt am Main', 50.11, 8.68],
  ],
  FR: [
    ['Paris', 48.86, 2.35],
    ['Lyon', 45.76, 4.84],
    ['Marseille', 43.3, 5.37],
    ['Toulouse', 43.6, 1.44],
    ['Bordeaux', 44.84, -0.58],
  ],
  NL: [
    ['Amsterdam', 52.37, 4.9],
    ['Rotterdam', 51.92, 4.48],
    ['Utrecht', 52.09, 5.12],
    ['Eindhoven', 51.44, 5.47],
  ],
  ES: [
    ['Madrid', 40.42, -3.7],
    ['Barcelona', 41.39, 2.17],
    ['Valencia', 39.47, -0.38],
    ['Seville', 37.39, -5.98],
    ['Málaga', 36.72, -4.42],
  ],
  IT: [
    ['Milan', 45.46, 9.19],
    ['Rome', 41.9, 12.5],
    ['Turin', 45.07, 7.69],
    ['Naples', 40.85, 14.27],
    ['Bologna', 44.49, 11.34],
  ],
  AT: [
    ['Vienna', 48.21, 16.37],
    ['Graz', 47.07, 15.44],
    ['Linz', 48.31, 14.29],
    ['Salzburg', 47.81, 13.06],
  ],
  BE: [
    ['Brussels', 50.85, 4.35],
    ['Antwerp', 51.22, 4.4],
    ['Ghent', 51.05, 3.72],
    ['Liège', 50.63, 5.57],
  ],
  SE: [
    ['Stockholm', 59.33, 18.07],
    ['Gothenburg', 57.71, 11.97],
    ['Malmö', 55.6, 13],
  ],
  PL: [
    ['Warsaw', 52.23, 21.01],
    ['Kraków', 50.06, 19.94],
    ['Wrocław', 51.11, 17.04],
    ['Gdańsk', 54.35, 18.65],
    ['Poznań', 52.41, 16.93],
  ],
  IE: [
    ['Dublin', 53.35, -6.26],
    ['Cork', 51.9, -8.47],
    ['Galway', 53.27, -9.05],
  ],
  PT: [
    ['Lisbon', 38.72, -9.14],
    ['Porto', 41.15, -8.61],
  ],
  DK: [
    ['Copenhagen', 55.68, 12.57],
    ['Aarhus', 56.16, 10.2],
  ],
  FI: [
    ['Helsinki', 60.17, 24.94],
    ['Tampere', 61.5, 23.76],
  ],
  CZ: [
    ['Prague', 50.08, 14.44],
    ['Brno', 49.2, 16.61],
  ],
  HU: [
    ['Budapest', 47.5, 19.04],
    ['Debrecen', 47.53, 21.64],
  ],
  RO: [
    ['Bucharest', 44.43, 26.1],
    ['Cluj-Napoca', 46.77, 23.6],
  ],
  GR: [
    ['Athens', 37.98, 23.73],
    ['Thessaloniki', 40.64, 22.94],
  ],
  NO: [
    ['Oslo', 59.91, 10.75],
    ['Bergen', 60.39, 5.32],
  ],
  SK: [
    ['Bratislava', 48.15, 17.11],
    ['Košice', 48.72, 21.26],
  ],
  SI: [
    ['Ljubljana', 46.06, 14.51],
    ['Maribor', 46.55, 15.65],
  ],
  HR: [
    ['Zagreb', 45.81, 15.98],
    ['Split', 43.51, 16.44],
  ],
  LU: [['Luxembourg', 49.61, 6.13]],
  BG: [
    ['Sofia', 42.7, 23.32],
    ['Plovdiv', 42.14, 24.75],
  ],
  IS: [['Reykjavík', 64.15, -21.94]],
};

export const NAME_PLACES = [
  'Nordic',
  'Alpine',
  'Baltic',
  'Atlantic',
  'Riviera',
  'Danube',
  'Rhine',
  'Iberia',
  'Aurora',
  'Meridian',
  'Harbour',
  'Linden',
  'Cedar',
  'Helios',
  'Adria',
  'Tatra',
  'Fjord',
  'Coast',
  'Central',
  'Union',
];
export const NAME_SPECIALTIES: Readonly<Record<string, readonly string[]>> = {
  Dental: ['Dental', 'Smile', 'Dentistry', 'Tooth'],
  Aesthetic: ['Aesthetics', 'Skin', 'Beauty Medicine', 'Derma'],
  Laser: ['Laser', 'Skin & Laser'],
  'Eye surgery': ['Vision', 'Eye', 'Lens'],
  Fertility: ['Fertility', 'IVF', 'Family'],
};
export const GENERAL_SPECIALTIES = ['Health', 'Wellness', 'Medicine', 'Multispecialty'];
export const NAME_SUFFIXES = ['Group', 'Clinics', 'Care', 'Partners', 'Centres', 'Medical'];
export const STREETS = [
  'Market Street',
  'Park Avenue',
  'Station Road',
  'Harbour Way',
  'Castle Square',
  'River Lane',
  'Church Street',
  'University Road',
];
