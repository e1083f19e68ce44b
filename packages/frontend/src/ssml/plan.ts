/**
 * A parsed SSML document read for a voice's dialect: the runs of text that
 * are spoken with one prosody, each followed by the silence of the breaks
 * after it. Each run is one synthesis; the server lays the runs and their
 * silences end to end. `<say-as>` and `<phoneme>` become readings decided in
 * advance (units), which the front-end speaks as given (readPieces).
 */

import { type Piece, unitsFor } from "../override.js";
import { isHan } from "../text/chars.js";
import type { Dialect } from "../types.js";
import { sayAsPieces } from "./say-as.js";
import type { Prosody, SsmlDocument, SsmlItem, SsmlNote } from "./types.js";

export interface SsmlRun {
  /** What the front-end reads (readPieces). */
  pieces: Piece[];
  /** The same as text, decided readings in override marks (`重庆[chong2 qing4]`): for display and for voices without front-end rules. */
  text: string;
  prosody: Prosody;
  /** Silence after the run's speech, from the breaks that follow it. */
  pauseAfterMs: number;
}

export interface SsmlPlan {
  /** Silence before the first run (breaks before any text). */
  leadingMs: number;
  runs: SsmlRun[];
  /** What each element did, in document order. */
  notes: SsmlNote[];
}

const SENTENCE_END = /[。！？!?.…；;][”’」』）)》〉"']*\s*$/u;
/** Splits text after each sentence end (its closing quotes and spaces kept with it); a full stop between digits or letters is none. */
const SENTENCE_SPLIT = /(?<=[。！？!?…；;][”’」』）)》〉"']*\s*)(?=[^\s。！？!?…；;”’」』）)》〉"'])/u;

/**
 * `dialect` undefined: a voice without front-end rules, given text as it is;
 * `<say-as>` and `<phoneme>` then speak their content as written.
 */
export function planSsml(document: SsmlDocument, dialect: Dialect | undefined): SsmlPlan {
  const runs: SsmlRun[] = [];
  const notes: SsmlNote[] = [...document.notes];
  let leadingMs = 0;
  let open: SsmlRun | undefined;

  const add = (pieces: Piece[], prosody: Prosody, blank: boolean) => {
    if (!open || !sameProsody(open.prosody, prosody)) {
      // White space between elements starts nothing of its own.
      if (blank) return;
      open = { pieces: [], text: "", prosody, pauseAfterMs: 0 };
      runs.push(open);
    }
    for (const piece of pieces) {
      // A decided reading of letters must not take the letters written before it too.
      const gap = piece.kind === "units" && /[A-Za-z0-9]$/.test(open.text) ? " " : "";
      if (gap) open.pieces.push({ kind: "text", text: gap });
      if (piece.kind !== "text") {
        open.pieces.push(piece);
        open.text += gap + display(piece);
        continue;
      }
      // Each sentence is a run of its own, as a plain text's sentences are parts of their own:
      // where each is heard is then known (timings), and a long document streams sentence by sentence.
      const sentences = piece.text.split(SENTENCE_SPLIT);
      sentences.forEach((sentence, i) => {
        if (sentence === "") return;
        if (!open) {
          if (sentence.trim() === "") return;
          open = { pieces: [], text: "", prosody, pauseAfterMs: 0 };
          runs.push(open);
        }
        open.pieces.push({ kind: "text", text: sentence });
        open.text += sentence;
        if (i < sentences.length - 1 && SENTENCE_END.test(sentence)) open = undefined;
      });
    }
  };

  for (const item of document.items) {
    switch (item.kind) {
      case "text":
        add([{ kind: "text", text: item.text }], item.prosody, item.text.trim() === "");
        break;
      case "break": {
        notes.push({ ...item.place, did: `${item.ms} ms of silence` });
        const last = runs.at(-1);
        if (last) last.pauseAfterMs += item.ms;
        else leadingMs += item.ms;
        open = undefined;
        break;
      }
      case "sentence":
        if (open && open.text.trim() !== "" && !SENTENCE_END.test(open.text)) add([{ kind: "text", text: "。" }], open.prosody, false);
        break;
      default: {
        const { pieces, did } = decided(item, dialect);
        notes.push({ ...item.place, did });
        add(pieces, item.prosody, false);
      }
    }
  }
  notes.sort((a, b) => a.line - b.line || a.column - b.column);
  return { leadingMs, runs, notes };
}

function decided(item: Extract<SsmlItem, { kind: "say-as" | "phoneme" }>, dialect: Dialect | undefined): { pieces: Piece[]; did: string } {
  const asText: Piece[] = [{ kind: "text", text: item.text }];
  if (item.kind === "say-as") {
    if (dialect === undefined) return { pieces: asText, did: "the voice has no front-end rules: the content is spoken as written" };
    const pieces = sayAsPieces(item.as, item.text, item.format, dialect);
    return { pieces, did: `read as ${item.as}: ${pieces.map(plain).join("")}` };
  }
  const wanted = item.alphabet === "pinyin" ? "cmn" : "yue";
  if (dialect !== wanted) {
    return { pieces: asText, did: `ignored: ${item.alphabet} is not the voice's reading; "${item.text}" is read as usual` };
  }
  const chars = [...item.text];
  const units = unitsFor(chars, item.syllables, chars.every(isHan));
  return { pieces: [{ kind: "units", units }], did: `read ${item.syllables.join(" ")}` };
}

function display(piece: Piece): string {
  if (piece.kind === "text") return piece.text;
  return `${plain(piece)}[${piece.units.flatMap((u) => u.syllables).join(" ")}]`;
}

function plain(piece: Piece): string {
  return piece.kind === "text" ? piece.text : piece.units.map((u) => u.text).join("");
}

function sameProsody(a: Prosody, b: Prosody): boolean {
  return a.rate === b.rate && a.pitch === b.pitch && a.volume === b.volume;
}
