import { MICRO_PER_YUAN, PRICE_TIERS, type PriceTier } from "@fangyan/protocol";
import { parseSimple } from "../args.js";
import { clientFor, type Io, printJson } from "../context.js";
import { columns, count, yuan } from "../format.js";
import { ACCOUNT_HELP } from "../help.js";

const toMicro = (amount: number) => Math.round(amount * MICRO_PER_YUAN);

interface Tier {
  from_total_recharge_yuan: number;
  price_per_wan_yuan: number;
}

function tierJson(tier: PriceTier): Tier {
  return {
    from_total_recharge_yuan: tier.minTotalRechargeMicro / MICRO_PER_YUAN,
    price_per_wan_yuan: tier.pricePerWanMicro / MICRO_PER_YUAN,
  };
}

/** The published tier the account is on, and the next one up, if the service's price is one of them. */
function tiers(totalRechargeYuan: number, pricePerWanYuan: number): { current: Tier | undefined; next: Tier | undefined } {
  const total = toMicro(totalRechargeYuan);
  const ascending = [...PRICE_TIERS].sort((a, b) => a.minTotalRechargeMicro - b.minTotalRechargeMicro);
  const current = [...ascending].reverse().find((tier) => total >= tier.minTotalRechargeMicro);
  if (!current || current.pricePerWanMicro !== toMicro(pricePerWanYuan)) return { current: undefined, next: undefined };
  const next = ascending.find((tier) => tier.minTotalRechargeMicro > total);
  return { current: tierJson(current), next: next ? tierJson(next) : undefined };
}

export async function account(io: Io, argv: string[]): Promise<void> {
  const args = parseSimple("account", argv);
  if (args.help) {
    io.stdout.write(ACCOUNT_HELP);
    return;
  }
  const info = await clientFor(io, args).account();
  const { current, next } = tiers(info.totalRechargeYuan, info.pricePerWanYuan);
  // What the balance buys at this price, in whole 50-character steps.
  const priceMicro = toMicro(info.pricePerWanYuan);
  const affordable = priceMicro > 0 ? Math.floor(((toMicro(info.balanceYuan) / priceMicro) * 10_000) / 50) * 50 : 0;
  if (args.json) {
    printJson(io, {
      name: info.name,
      balance_yuan: info.balanceYuan,
      total_recharge_yuan: info.totalRechargeYuan,
      total_consumed_yuan: info.totalConsumedYuan,
      price_per_wan_yuan: info.pricePerWanYuan,
      tier: current ?? null,
      next_tier: next ?? null,
      affordable_chars: affordable,
    });
    return;
  }
  const tierText = current
    ? current.from_total_recharge_yuan === 0
      ? "standard tier"
      : `tier from ${yuan(current.from_total_recharge_yuan)} recharged`
    : undefined;
  const nextText = next
    ? `${yuan(next.price_per_wan_yuan)} once ${yuan(next.from_total_recharge_yuan)} has been recharged in total`
    : undefined;
  const price = [tierText, nextText].filter(Boolean).join("; ");
  const rows = [
    ["Account", info.name],
    ["Balance", `${yuan(info.balanceYuan)} (about ${count(affordable)} characters at this price)`],
    ["Price", `${yuan(info.pricePerWanYuan)} per 10,000 characters${price ? ` (${price})` : ""}`],
    ["Recharged", `${yuan(info.totalRechargeYuan)} in total`],
    ["Spent", `${yuan(info.totalConsumedYuan)} in total`],
  ];
  io.stdout.write(`${columns(rows).join("\n")}\n`);
}
