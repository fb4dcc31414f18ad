import { z } from 'zod';
import type { ModuleJob } from '../modules/module';
import { recordFigures } from '../commands/market/handlers';
import { MARKET_COLLECTIONS, type LocationRecord, type ObservationRecord } from '../projections/market';
import { computeFigures } from './figures';
import { readAll } from './read-models';

/**
 * `market.coverage`: recomputes every market's coverage, evidence depth and relative price levels
 * from the read models whenever observations or locations arrive, and records the markets whose
 * figures changed (a rerun over the same data appends nothing).
 */
export const coverageJob: ModuleJob<Record<string, never>> = {
  name: 'market.coverage',
  payload: z.strictObject({}),
  trigger: { on: ['PriceObserved', 'LocationGeocoded'], payload: () => ({}) },
  async run(_payload, services, context) {
    const [observations, locations] = await Promise.all([
      readAll<ObservationRecord>(services.readStore, MARKET_COLLECTIONS.observations),
      readAll<LocationRecord>(services.readStore, MARKET_COLLECTIONS.locations),
    ]);
    await recordFigures(context, computeFigures(observations, locations));
  },
};
