/**
 * Money inside the planner is integer cents (safe integers); rates are integer basis points.
 * The one rounding rule: every computed amount is rounded half-even to the cent where it is computed
 * (`mulDiv`), so every statement reconciles exactly to the cent. Division runs on BigInt, because a
 * double's quotient of two large integers can land on the wrong side of a rounding boundary.
 */

function checked(value: number, name: string): bigint {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} is not a safe integer: ${value}`);
  return BigInt(value);
}

/** `round_half_even(a * b / c)` for integers, `c` positive. */
export function mulDiv(a: number, b: number, c: number): number {
  const numerator = checked(a, 'a') * checked(b, 'b');
  const divisor = checked(c, 'c');
  if (divisor <= 0n) throw new RangeError('divisor must be positive');
  let quotient = numerator / divisor;
  let remainder = numerator % divisor;
  // BigInt division truncates towards zero; step down to the floor first.
  if (remainder < 0n) {
    quotient -= 1n;
    remainder += divisor;
  }
  const twice = remainder * 2n;
  if (twice > divisor || (twice === divisor && quotient % 2n !== 0n)) quotient += 1n;
  const result = Number(quotient);
  if (!Number.isSafeInteger(result)) throw new RangeError(`result is not a safe integer: ${quotient}`);
  return result;
}

/** `amount x basisPoints / 10 000`, rounded half-even to the cent. */
export const applyBp = (amount: number, basisPoints: number): number => mulDiv(amount, basisPoints, 10_000);

/** A decimal with at most two places (`1250.5`, `1.25`) as an integer of hundredths (`125050`, `125`). */
export function hundredths(value: number): number {
  const scaled = Math.round(value * 100);
  if (!Number.isSafeInteger(scaled) || Math.abs(scaled - value * 100) > 1e-6) {
    throw new RangeError(`${value} has more than two decimal places`);
  }
  return scaled;
}

/** Integer cents (or hundredths) as the decimal number the API presents: `123456` -> `1234.56`. */
export const decimal = (hundredthsValue: number): number => hundredthsValue / 100;

/** `part / whole` as a percentage with two decimals (half-even), or null when `whole` is zero. */
export function percent(part: number, whole: number): number | null {
  if (whole === 0) return null;
  const sign = whole < 0 ? -1 : 1;
  return decimal(mulDiv(part * sign, 10_000, whole * sign));
}

export const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);
