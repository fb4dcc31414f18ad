import { z } from 'zod';
import { timestamp } from '../../projections/fields';

const RECORD_TIMES = {
  created_at: timestamp.meta({ description: 'When the event that made the record was recorded' }),
  updated_at: timestamp.meta({ description: 'When the latest event that changed the record was recorded' }),
};

const withTimes = new WeakMap<z.ZodObject, z.ZodObject>();

/**
 * A record's schema with the times every record carries (`evolveStamped`), as every description of
 * a record shows it. One schema per record, so that the record's id names one schema in a description.
 */
export function withRecordTimes(record: z.ZodObject): z.ZodObject;
export function withRecordTimes(record: z.ZodType): z.ZodType;
export function withRecordTimes(record: z.ZodType): z.ZodType {
  if (!(record instanceof z.ZodObject)) return record;
  let described = withTimes.get(record);
  if (!described) {
    // A record that had these fields before (a CRM opportunity's, in business time) keeps its own.
    const added = Object.entries(RECORD_TIMES).filter(([field]) => !(field in record.shape));
    described = record.extend(Object.fromEntries(added)).meta(record.meta() ?? {});
    withTimes.set(record, described);
  }
  return described;
}
