import type { Timing } from "@fangyan/protocol";
import { clockOf, cueLine } from "./cues.js";

/**
 * A WebVTT file (W3C WebVTT, served as `text/vtt`): `&`, `<` and `>` are
 * escaped, since cue text is markup there, and with them any `-->`.
 */
export function toVtt(cues: readonly Timing[]): string {
  const blocks = cues.map((cue, i) => {
    const text = cueLine(cue).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    return `${i + 1}\n${clockOf(cue.start_ms, ".")} --> ${clockOf(cue.end_ms, ".")}\n${text}\n`;
  });
  return ["WEBVTT\n", ...blocks].join("\n");
}
