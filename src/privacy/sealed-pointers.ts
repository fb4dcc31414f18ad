import { sealedHeader, type SealedHeader } from './sealed-value';

/** A sealed value in stored data: where it is (its RFC 6901 JSON pointer), the value and its header. */
export interface SealedAt {
  pointer: string;
  sealed: string;
  header: SealedHeader;
}

/** A step of a JSON pointer, `~` and `/` escaped (RFC 6901 §3). */
const pointerStep = (step: string | number) => String(step).replace(/~/g, '~0').replace(/\//g, '~1');

/** Every sealed value of stored data (`/reason`, `/contacts/0/email`), in the order of its fields. */
export function sealedValuesIn(value: unknown, pointer = ''): SealedAt[] {
  const header = sealedHeader(value);
  if (header) return [{ pointer, sealed: value as string, header }];
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value))
    return value.flatMap((item, index) => sealedValuesIn(item, `${pointer}/${index}`));
  return Object.entries(value).flatMap(([field, item]) =>
    sealedValuesIn(item, `${pointer}/${pointerStep(field)}`),
  );
}
