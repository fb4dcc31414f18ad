import { z } from 'zod';
import type { FilterDefinition } from '../kit/module';
import { enumFilter, idFilter } from '../kit/parameters';

type Values = readonly [string, ...string[]];

export const filters = {
  status: (values: Values): FilterDefinition =>
    enumFilter('status', values, 'Exact status, in any letter case'),
  oneOf: (field: string, values: Values, description: string): FilterDefinition =>
    enumFilter(field, values, `${description}, in any letter case`),
  id: idFilter,
  /** Records whose `field` is on or after the date. */
  from: (field: string, description: string): FilterDefinition => ({
    field,
    op: 'gte',
    schema: z.iso.date(),
    description: `${description} (YYYY-MM-DD)`,
  }),
  /** Records whose `field` is on or before the date. */
  to: (field: string, description: string): FilterDefinition => ({
    field,
    op: 'lte',
    schema: z.iso.date(),
    description: `${description} (YYYY-MM-DD)`,
  }),
  country: (): FilterDefinition => ({
    field: 'country',
    schema: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'Input should be an ISO 3166-1 alpha-2 country code')
      .transform((code) => code.toUpperCase()),
    description: 'ISO 3166-1 alpha-2 country code, in any letter case',
  }),
  locale: (): FilterDefinition => ({
    field: 'locale',
    schema: z
      .string()
      .regex(/^[A-Za-z]{2}-[A-Za-z]{2}$/, 'Input should be a locale such as de-DE')
      .transform((locale) => `${locale.slice(0, 2).toLowerCase()}-${locale.slice(3).toUpperCase()}`),
    description: 'Locale such as de-DE, in any letter case',
  }),
};

/** Every field a resource filters on gets an index: the collection's filter fields are its filters' fields. */
export function filterFields(definitions: Readonly<Record<string, FilterDefinition>>): string[] {
  return [...new Set(Object.values(definitions).map((definition) => definition.field))];
}
