import type { Voice } from "@fangyan/client";
import type { I18n } from "./i18n/i18n.js";

// The service labels dialect groups in Chinese; English readers get the English name beside it.
const ENGLISH_NAMES: Record<string, string> = {
  yue: "Cantonese",
  cmn: "Mandarin",
  hak: "Hakka",
  nan: "Southern Min",
  wuu: "Wu",
};

export function dialectLabel(i18n: I18n, label: string, code: string | undefined): string {
  const english = code ? ENGLISH_NAMES[code] : undefined;
  return i18n.lang === "en" && english ? `${english} (${label})` : label;
}

/** The service's name (Chinese, it already says the gender), with the gender in English for English readers. */
export function voiceLabel(i18n: I18n, voice: Voice): string {
  if (i18n.lang !== "en") return voice.name;
  const gender = voice.gender === "female" || voice.gender === "male" ? i18n.t(voice.gender) : undefined;
  return gender ? `${voice.name} (${gender})` : voice.name;
}
