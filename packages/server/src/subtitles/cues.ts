/**
 * Subtitle files made from the sentence timings of a `POST /tts` answer:
 * WebVTT (vtt.ts) for browsers' <track>, SRT (srt.ts) for video editors and
 * players. Both are one cue per sentence, numbered from 1, on one line.
 */

import type { Timing } from "@fangyan/protocol";

/** `01:02:03.456` (VTT, separator ".") or `01:02:03,456` (SRT, ","), from milliseconds. */
export function clockOf(ms: number, separator: "." | ","): string {
  const whole = Math.max(0, Math.round(ms));
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor(whole / 60_000) % 60;
  const seconds = Math.floor(whole / 1000) % 60;
  const pad = (value: number, width: number) => String(value).padStart(width, "0");
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}${separator}${pad(whole % 1000, 3)}`;
}

/** A sentence as one line of cue text: a blank line would end the cue early in both formats. */
export function cueLine(timing: Timing): string {
  return timing.text.replace(/\s+/gu, " ").trim();
}
