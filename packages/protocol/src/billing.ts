/**
 * Billing arithmetic, shared by the server and every client so that an
 * estimate always equals the charge. Money is an integer count of micro-yuan
 * (1 yuan = 1,000,000): 50 characters at 1.75 yuan per 10,000 is exactly 8,750.
 */

export const MICRO_PER_YUAN = 1_000_000;
export const MICRO_PER_CENT = 10_000;
export const MAX_TEXT_CHARS = 5000;
export const BILLING_STEP_CHARS = 50;
export const CHARS_PER_WAN = 10_000;

export interface PriceTier {
  /** Total recharge, in micro-yuan, from which this tier applies. */
  minTotalRechargeMicro: number;
  /** Price in micro-yuan per 10,000 billable characters. */
  pricePerWanMicro: number;
}

/** Highest threshold first (interface 2.7). */
export const PRICE_TIERS: readonly PriceTier[] = [
  { minTotalRechargeMicro: 2000 * MICRO_PER_YUAN, pricePerWanMicro: 1_750_000 },
  { minTotalRechargeMicro: 500 * MICRO_PER_YUAN, pricePerWanMicro: 1_900_000 },
  { minTotalRechargeMicro: 0, pricePerWanMicro: 2_000_000 },
];

/** A character is a Unicode code point: "𠮷" counts 1. */
export function countChars(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Rounded up to the next multiple of 50: 1-50 -> 50, 51-100 -> 100. */
export function billableChars(rawChars: number): number {
  return Math.ceil(rawChars / BILLING_STEP_CHARS) * BILLING_STEP_CHARS;
}

export function pricePerWanMicro(totalRechargeMicro: number): number {
  for (const tier of PRICE_TIERS) {
    if (totalRechargeMicro >= tier.minTotalRechargeMicro) return tier.pricePerWanMicro;
  }
  // Unreachable while the last tier starts at 0; a negative total is a bug upstream.
  throw new RangeError("total recharge cannot be negative");
}

/** Exact for every tier; rounds up if a future price is not a multiple of 200 micro-yuan. */
export function costMicro(billable: number, pricePerWan: number): number {
  return Math.ceil((billable * pricePerWan) / CHARS_PER_WAN);
}

export interface Quote {
  rawChars: number;
  billableChars: number;
  costMicro: number;
}

export function quote(text: string, pricePerWan: number): Quote {
  const raw = countChars(text);
  const billable = billableChars(raw);
  return { rawChars: raw, billableChars: billable, costMicro: costMicro(billable, pricePerWan) };
}

/** The exact charge for `text` at a price given in yuan per 10,000 characters (as GET /account reports it). */
export function estimateCostYuan(text: string, pricePerWanYuan: number): number {
  return microToYuan(quote(text, Math.round(pricePerWanYuan * MICRO_PER_YUAN)).costMicro);
}

/** The edge conversion to a JSON number: 8750 -> 0.00875. */
export function microToYuan(micro: number): number {
  return micro / MICRO_PER_YUAN;
}

/** For INSUFFICIENT_BALANCE: a cost is rounded up to a whole cent ... */
export function centsUp(micro: number): number {
  return Math.ceil(micro / MICRO_PER_CENT);
}

/** ... and a balance down. */
export function centsDown(micro: number): number {
  return Math.floor(micro / MICRO_PER_CENT);
}

const YUAN_AMOUNT = /^(0|[1-9]\d{0,11})(?:\.(\d{1,2}))?$/;

/**
 * Parses a recharge amount: positive yuan with at most two decimals
 * ("12", "12.5", 0.01). Returns undefined for anything else, never a float.
 */
export function parseYuanAmount(input: string | number): number | undefined {
  const text = typeof input === "number" ? (Number.isFinite(input) ? String(input) : "") : input.trim();
  const match = YUAN_AMOUNT.exec(text);
  if (!match) return undefined;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? "").padEnd(2, "0"));
  const micro = whole * MICRO_PER_YUAN + fraction * MICRO_PER_CENT;
  return micro > 0 ? micro : undefined;
}
