import { z } from 'zod';

/** Building blocks of record schemas: what the OpenAPI description says of each field's type. */
export const id = z.number().int();
export const idOrNull = id.nullable();
export const text = z.string();
export const textOrNull = text.nullable();
/** A string field holding one of `values` (described as an enum; the projection guarantees it). */
export const oneOf = (values: readonly string[], description?: string) =>
  z.string().meta({ enum: [...values], ...(description && { description }) });
/** `YYYY-MM-DD` */
export const date = z.string().meta({ format: 'date' });
/** ISO 8601 UTC, `2026-11-21T09:30:00Z` */
export const timestamp = z.string().meta({ format: 'date-time' });
