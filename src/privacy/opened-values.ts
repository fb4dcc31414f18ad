import { Recent } from './recent';

/** Values a process keeps opened at most, in each of two generations (a few MB in all). */
const KEPT_VALUES = 5_000;

/**
 * The personal values this process sealed or opened lately, by their sealed form, so that opening
 * one again (the projection folding the event just appended, a command reading its stream) costs no
 * decryption. Only a value whose key is known is looked up here: an erased subject's values read as
 * erased whatever this holds. Texts, numbers and booleans only: an object would be shared by callers.
 */
export class OpenedValues {
  private readonly values = new Recent<string, unknown>({ size: KEPT_VALUES });

  get(sealed: string): unknown {
    return this.values.get(sealed);
  }

  has(sealed: string): boolean {
    return this.values.has(sealed);
  }

  remember(sealed: string, value: unknown): void {
    if (typeof value === 'object' && value !== null) return;
    this.values.set(sealed, value);
  }
}
