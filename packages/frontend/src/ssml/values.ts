/**
 * The values of `<break>` and `<prosody>` attributes, as multipliers of the
 * request's own controls. A value outside the range the request's controls
 * have (speed and pitch 0.5-2, volume 0.1-2) is refused rather than quietly
 * clamped, so the customer learns it; what nesting multiplies together is
 * clamped when spoken (docs/protocol.md, "SSML").
 */

/** The longest single `<break>`. */
export const MAX_BREAK_MS = 10_000;
/** The most silence all the breaks of one document may add together. */
export const MAX_TOTAL_BREAK_MS = 60_000;

/** A `<break>` without `time`: its `strength`, or medium. */
export const BREAK_STRENGTH_MS: Readonly<Record<string, number>> = {
  none: 0,
  "x-weak": 100,
  weak: 250,
  medium: 500,
  strong: 750,
  "x-strong": 1000,
};

/** A parsed value, or why it is refused. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** "800ms", "1.5s". */
export function breakTime(value: string): Parsed<number> {
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(ms|s)\s*$/.exec(value);
  if (!m) return { ok: false, reason: `time="${value}" is not a duration such as "500ms" or "1.5s"` };
  const ms = Math.round(Number(m[1]) * (m[2] === "s" ? 1000 : 1));
  if (ms > MAX_BREAK_MS) return { ok: false, reason: `time="${value}" is longer than the ${MAX_BREAK_MS / 1000} s a break may last` };
  return { ok: true, value: ms };
}

export function breakStrength(value: string): Parsed<number> {
  const ms = BREAK_STRENGTH_MS[value.trim()];
  if (ms === undefined) return { ok: false, reason: `strength="${value}" is not one of ${Object.keys(BREAK_STRENGTH_MS).join(", ")}` };
  return { ok: true, value: ms };
}

/** A prosody value: `absolute` replaces the enclosing span's multiplier, `relative` multiplies it. */
export interface Change {
  mode: "absolute" | "relative";
  factor: number;
}

export type ProsodyAttribute = "rate" | "pitch" | "volume";

/** The multipliers one value may give: the ranges of the request's own controls. */
export const PROSODY_RANGE: Readonly<Record<ProsodyAttribute, { min: number; max: number }>> = {
  rate: { min: 0.5, max: 2 },
  pitch: { min: 0.5, max: 2 },
  volume: { min: 0.1, max: 2 },
};

const LABELS: Readonly<Record<ProsodyAttribute, Readonly<Record<string, number>>>> = {
  rate: { "x-slow": 0.5, slow: 0.75, medium: 1, fast: 1.5, "x-fast": 2, default: 1 },
  pitch: { "x-low": 0.6, low: 0.8, medium: 1, high: 1.25, "x-high": 1.5, default: 1 },
  volume: { silent: 0, "x-soft": 0.25, soft: 0.5, medium: 1, loud: 1.5, "x-loud": 2, default: 1 },
};

const NUMBER = String.raw`(\d+(?:\.\d+)?|\.\d+)`;

export function prosodyValue(attribute: ProsodyAttribute, raw: string): Parsed<Change> {
  const value = raw.trim();
  const label = LABELS[attribute][value];
  if (label !== undefined) return { ok: true, value: { mode: "absolute", factor: label } };
  const change = parseChange(attribute, value);
  if (!change) {
    return { ok: false, reason: `${attribute}="${raw}" is not a value this service reads (${forms[attribute]})` };
  }
  const { min, max } = PROSODY_RANGE[attribute];
  // A volume of 0 ("0", "silent") keeps the span's time in silence.
  const silent = attribute === "volume" && change.mode === "absolute" && change.factor === 0;
  if (!silent && (!Number.isFinite(change.factor) || change.factor < min || change.factor > max)) {
    return { ok: false, reason: `${attribute}="${raw}" is ×${round(change.factor)}; the range is ×${min} to ×${max}` };
  }
  return { ok: true, value: change };
}

const forms: Readonly<Record<ProsodyAttribute, string>> = {
  rate: `${Object.keys(LABELS.rate).join(", ")}, "150%", "+10%", "-20%" or a multiplier such as "1.2"`,
  pitch: `${Object.keys(LABELS.pitch).join(", ")}, "+10%", "-20%", "+2st" or "-3st"`,
  volume: `${Object.keys(LABELS.volume).join(", ")}, "+6dB", "-3dB", "+10%", "80%" or 0-100`,
};

function parseChange(attribute: ProsodyAttribute, value: string): Change | undefined {
  const signed = new RegExp(`^([+-])${NUMBER}(%|st|dB)?$`).exec(value);
  if (signed) {
    const amount = Number(signed[2]) * (signed[1] === "-" ? -1 : 1);
    const unit = signed[3];
    if (unit === "%") return { mode: "relative", factor: 1 + amount / 100 };
    if (unit === "st" && attribute === "pitch") return { mode: "relative", factor: 2 ** (amount / 12) };
    if (unit === "dB" && attribute === "volume") return { mode: "relative", factor: 10 ** (amount / 20) };
    return undefined;
  }
  const unsigned = new RegExp(`^${NUMBER}(%)?$`).exec(value);
  if (!unsigned) return undefined;
  const amount = Number(unsigned[1]);
  if (unsigned[2] === "%") return attribute === "pitch" ? undefined : { mode: "absolute", factor: amount / 100 };
  // SSML 1.1: a rate is a multiplier; a volume 0 (silent) to 100 (here: the voice's own level).
  if (attribute === "rate") return { mode: "absolute", factor: amount };
  if (attribute === "volume" && amount <= 100) return { mode: "absolute", factor: amount / 100 };
  return undefined;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
