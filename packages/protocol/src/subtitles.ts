/**
 * Subtitle files from sentence timings, the same bytes wherever they are
 * written: by the server beside the audio, by the client for a text it split
 * into several requests, by the console. One cue per timing, numbered from 1,
 * its text on one line (a blank line would end a cue early in both formats).
 */

import type { Timing } from "./wire.js";

/** `01:02:03.456` (WebVTT, separator ".") or `01:02:03,456` (SRT, ","), from milliseconds. */
export function subtitleClock(ms: number, separator: "." | ","): string {
  const whole = Math.max(0, Math.round(ms));
  const pad = (value: number, width: number) => String(value).padStart(width, "0");
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor(whole / 60_000) % 60;
  const seconds = Math.floor(whole / 1000) % 60;
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}${separator}${pad(whole % 1000, 3)}`;
}

function cueLine(timing: Timing): string {
  return timing.text.replace(/\s+/gu, " ").trim();
}

/** A WebVTT file (`text/vtt`). Cue text is markup there, so `&`, `<` and `>` are escaped, and with them any `-->`. */
export function toVtt(cues: readonly Timing[]): string {
  const blocks = cues.map((cue, i) => {
    const text = cueLine(cue).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    return `${i + 1}\n${subtitleClock(cue.start_ms, ".")} --> ${subtitleClock(cue.end_ms, ".")}\n${text}\n`;
  });
  return ["WEBVTT\n", ...blocks].join("\n");
}

/** A SubRip file (`application/x-subrip`): numbered cues, a comma before the milliseconds. */
export function toSrt(cues: readonly Timing[]): string {
  return cues
    .map((cue, i) => `${i + 1}\n${subtitleClock(cue.start_ms, ",")} --> ${subtitleClock(cue.end_ms, ",")}\n${cueLine(cue)}\n`)
    .join("\n");
}
