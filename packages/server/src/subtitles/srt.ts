import type { Timing } from "@fangyan/protocol";
import { clockOf, cueLine } from "./cues.js";

/** A SubRip file (`application/x-subrip`): numbered cues, comma before the milliseconds, CRLF-free. */
export function toSrt(cues: readonly Timing[]): string {
  return cues.map((cue, i) => `${i + 1}\n${clockOf(cue.start_ms, ",")} --> ${clockOf(cue.end_ms, ",")}\n${cueLine(cue)}\n`).join("\n");
}
