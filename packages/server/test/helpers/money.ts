import { expect } from "vitest";
import type { Store } from "../../src/store/store.js";

const SENTENCES =
  "今天天气很好，我们一起去公园散步吧。公园里有很多人，有的在跑步，有的在打太极拳，还有小朋友在放风筝。春天来了，花都开了，红的、黄的、白的，真漂亮！我们走累了就在湖边坐一会儿。";

/** A Mandarin text of `chars` characters, long enough to be streamed when over 300. */
export function longText(chars: number): string {
  return [...SENTENCES.repeat(Math.ceil(chars / 60))].slice(0, chars).join("");
}

/** balance + consumed = recharged = the sum of the recharge rows, and the ledger sums to the balance. */
export async function moneyHolds(store: Store, accountId: string) {
  const account = await store.getAccount(accountId);
  if (!account) throw new Error("no account");
  const ledger = await store.ledger(accountId, { limit: 500 });
  expect(ledger.reduce((sum, entry) => sum + entry.amountMicro, 0)).toBe(account.balanceMicro);
  expect(account.balanceMicro + account.totalConsumedMicro).toBe(account.totalRechargeMicro);
  expect(ledger.filter((e) => e.kind === "recharge").reduce((sum, e) => sum + e.amountMicro, 0)).toBe(account.totalRechargeMicro);
  return { account, ledger };
}

/** Polls `probe` until it gives a value; a fault test's way to wait for what a process does in the background. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 150_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
