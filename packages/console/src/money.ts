import { MICRO_PER_YUAN } from "@fangyan/protocol";
import type { I18n } from "./i18n/i18n.js";

/**
 * Yuan amounts as the service sends them are exact decimals of integer
 * micro-yuan; the console goes back to those integers before any arithmetic
 * or display, so 0.1 + 0.2 shows 0.3 and 0.00875 is not rounded away.
 */
export function toMicro(yuan: number): number {
  return Math.round(yuan * MICRO_PER_YUAN);
}

/** "0.99", "1.00", "0.00875", "12,000.50": at least two decimals, and every non-zero one. */
export function formatMicro(micro: number, locale: string): string {
  const sign = micro < 0 ? "-" : "";
  const absolute = Math.abs(micro);
  const whole = Math.floor(absolute / MICRO_PER_YUAN);
  const fraction = String(absolute % MICRO_PER_YUAN)
    .padStart(6, "0")
    .replace(/0{1,4}$/, "");
  return `${sign}${new Intl.NumberFormat(locale).format(whole)}.${fraction}`;
}

export function formatYuan(yuan: number, locale: string): string {
  return formatMicro(toMicro(yuan), locale);
}

/** An amount with its unit, in the current language: "0.99 元", "0.99 yuan". */
export function yuanText(i18n: I18n, yuan: number): string {
  return i18n.t("yuan", { amount: formatYuan(yuan, i18n.locale) });
}

/** Error details carry whole cents. */
export function centsText(i18n: I18n, cents: number): string {
  return i18n.t("yuan", { amount: formatMicro(cents * 10_000, i18n.locale) });
}
