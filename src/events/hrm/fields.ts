import { z } from 'zod';

/** Fields that the events of the HR module share. */
export const id = z.number().int().positive();
export const timestamp = z.string();
export const date = z.string().meta({ description: 'YYYY-MM-DD' });

export const statusChange = <const Statuses extends readonly [string, ...string[]]>(statuses: Statuses) =>
  z.object({ status: z.enum(statuses), changed_on: timestamp });
