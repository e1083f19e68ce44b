import { MICRO_PER_YUAN, PRICE_TIERS } from "@fangyan/protocol";
import type { I18n } from "./i18n/i18n.js";
import { formatMicro, toMicro, yuanText } from "./money.js";

/** The tier an account's total recharge puts it in, and what the next one would take. */
export function describeTier(i18n: I18n, totalRechargeYuan: number): { tier: string; next: string } {
  const total = toMicro(totalRechargeYuan);
  // PRICE_TIERS lists the highest threshold first.
  const index = PRICE_TIERS.findIndex((tier) => total >= tier.minTotalRechargeMicro);
  const current = PRICE_TIERS[index];
  const next = index > 0 ? PRICE_TIERS[index - 1] : undefined;
  const tier =
    !current || current.minTotalRechargeMicro === 0
      ? i18n.t("tierStandard")
      : i18n.t("tierFrom", { threshold: new Intl.NumberFormat(i18n.locale).format(current.minTotalRechargeMicro / MICRO_PER_YUAN) });
  const nextText = next
    ? i18n.t("nextTier", {
        more: yuanText(i18n, (next.minTotalRechargeMicro - total) / MICRO_PER_YUAN),
        price: formatMicro(next.pricePerWanMicro, i18n.locale),
      })
    : i18n.t("topTier");
  return { tier, next: nextText };
}
