import { estimateCostYuan, MICRO_PER_YUAN, microToYuan } from "@fangyan/protocol";

/**
 * What the service will charge for `text` at a price in yuan per 10,000
 * characters (`account().pricePerWanYuan`): the service's own arithmetic,
 * from @fangyan/protocol, so the estimate equals the charge to the last
 * micro-yuan. For a text over 5000 characters, estimate each piece of
 * `splitText` and add them up: each piece is rounded up to 50 on its own.
 */
export function estimateCost(text: string, pricePerWanYuan: number): number {
  return estimateCostYuan(text, pricePerWanYuan);
}

/** Adds yuan amounts through integer micro-yuan, so that 0.1 + 0.2 is 0.3. */
export function sumYuan(amounts: readonly number[]): number {
  let micro = 0;
  for (const yuan of amounts) micro += Math.round(yuan * MICRO_PER_YUAN);
  return microToYuan(micro);
}
