/** Punctuation becomes pauses; everything else that is neither read nor a pause is skipped. */

import { SENTENCE_END_MARKS } from "@fangyan/protocol";
import type { PauseKind } from "../types.js";

const PAUSES: Readonly<Record<string, PauseKind>> = {
  "，": "comma",
  ",": "comma",
  "、": "comma",
  "﹐": "comma",
  "（": "comma",
  "）": "comma",
  "(": "comma",
  ")": "comma",
  "【": "comma",
  "】": "comma",
  "〔": "comma",
  "〕": "comma",
  "—": "comma",
  "：": "colon",
  ":": "colon",
  // The marks that end a sentence are the protocol's, where the server and the client cut texts.
  ...SENTENCE_END_MARKS,
  // Numbers (3.14) are read before punctuation, so a full stop left over ends a sentence.
  ".": "period",
};

/** Weakest first: when marks follow each other (。」？！), the strongest one is the pause. */
const RANK: readonly PauseKind[] = ["comma", "colon", "semicolon", "ellipsis", "period", "question", "exclamation"];

export function pauseOf(char: string): PauseKind | undefined {
  return PAUSES[char];
}

export function strongerPause(a: PauseKind, b: PauseKind): PauseKind {
  return RANK.indexOf(b) > RANK.indexOf(a) ? b : a;
}

/** How a pause is written in the normalised text. */
export const PAUSE_TEXT: Record<PauseKind, string> = {
  comma: "，",
  colon: "：",
  semicolon: "；",
  ellipsis: "……",
  period: "。",
  question: "？",
  exclamation: "！",
};
