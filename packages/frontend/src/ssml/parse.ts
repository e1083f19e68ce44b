/**
 * SSML in, a flat list of what it says out: text with the prosody it is
 * spoken with, breaks, `<say-as>` and `<phoneme>` spans. Well-formedness is
 * saxes's (strict XML 1.0, with line and column); this file checks what the
 * elements say, and bounds what a document may ask for, so that a hostile
 * document is refused before any work: nesting, element count, break lengths.
 */

import { SaxesParser, type SaxesTagPlain } from "saxes";
import { parseReading } from "../override.js";
import { isHan } from "../text/chars.js";
import { checkSayAs } from "./say-as.js";
import {
  type PhonemeAlphabet,
  PLAIN_PROSODY,
  type Prosody,
  SAY_AS_KINDS,
  type SayAsKind,
  type SsmlDocument,
  type SsmlError,
  type SsmlItem,
  type SsmlParse,
  type SsmlPlace,
} from "./types.js";
import { breakStrength, breakTime, MAX_TOTAL_BREAK_MS, type ProsodyAttribute, prosodyValue } from "./values.js";

/** The deepest nesting of elements a document may have. */
export const MAX_DEPTH = 32;
/** The most elements (start tags) a document may have. */
export const MAX_ELEMENTS = 500;

// When a text is SSML is the protocol's to say: the client and the console decide it the same way.
export { isSsml } from "@fangyan/protocol";

/** Elements whose text is spoken as is, with a note of what was (not) done. */
const ACCEPTED: Readonly<Record<string, string>> = {
  speak: "the document",
  p: "a paragraph: it ends with a sentence pause",
  s: "a sentence: it ends with a sentence pause",
  lang: "read by the voice; Latin words are spoken as English words, as anywhere",
  mark: "ignored (no timing events)",
};

/** The text an element gathers instead of passing it on: say-as, phoneme and sub read their content as a whole. */
interface Gathering {
  tag: "say-as" | "phoneme" | "sub";
  place: SsmlPlace;
  text: string;
  as?: SayAsKind;
  format?: string | undefined;
  alphabet?: PhonemeAlphabet;
  syllables?: string[];
  alias?: string;
}

class Refusal extends Error {
  constructor(readonly detail: SsmlError) {
    super(detail.reason);
  }
}

export function parseSsml(text: string): SsmlParse {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const items: SsmlItem[] = [];
  const notes: SsmlDocument["notes"] = [];
  const open: Array<{ name: string; prosody: Prosody; place: SsmlPlace }> = [];
  let gathering: Gathering | undefined;
  let elements = 0;
  let breakTotal = 0;
  let tagStart = { line: 1, column: 1 };

  const prosody = () => open.at(-1)?.prosody ?? PLAIN_PROSODY;
  const refuse = (reason: string, place?: SsmlPlace): never => {
    const at = place ?? { line: parser.line, column: parser.column };
    const element = place?.element ?? open.at(-1)?.name;
    throw new Refusal({ line: at.line, column: at.column, ...(element === undefined ? {} : { element }), reason });
  };
  const addText = (content: string) => {
    if (gathering) {
      gathering.text += content;
      return;
    }
    if (open.length === 0) return;
    const spaced = content.replace(/\s+/g, " ");
    if (spaced.length > 0) items.push({ kind: "text", text: spaced, prosody: prosody() });
  };

  parser.on("error", (error) => {
    const element = open.at(-1)?.name;
    throw new Refusal({
      line: parser.line,
      column: parser.column,
      ...(element === undefined ? {} : { element }),
      reason: error.message.replace(/^\d+:\d+: /, "").replace(/\.$/, ""),
    });
  });
  parser.on("doctype", () => refuse("a DOCTYPE is not allowed in SSML sent to this service"));
  parser.on("opentagstart", (tag) => {
    tagStart = { line: parser.line, column: Math.max(1, parser.column - [...tag.name].length - 1) };
  });
  parser.on("opentag", (tag: SaxesTagPlain) => {
    const place: SsmlPlace = { element: tag.name, ...tagStart };
    elements++;
    if (elements > MAX_ELEMENTS) refuse(`more than ${MAX_ELEMENTS} elements`, place);
    if (open.length >= MAX_DEPTH) refuse(`elements nested more than ${MAX_DEPTH} deep`, place);
    if (open.length === 0 && tag.name !== "speak") refuse("the root element must be <speak>", place);
    if (gathering) refuse(`<${gathering.tag}> may contain only text`, place);
    const attr = (name: string) => tag.attributes[name];
    let next = prosody();
    switch (tag.name) {
      case "break": {
        const time = attr("time");
        const strength = attr("strength");
        const parsed = time !== undefined ? breakTime(time) : strength !== undefined ? breakStrength(strength) : breakStrength("medium");
        if (!parsed.ok) refuse(parsed.reason, place);
        const ms = parsed.ok ? parsed.value : 0;
        breakTotal += ms;
        if (breakTotal > MAX_TOTAL_BREAK_MS) refuse(`the breaks add up to more than ${MAX_TOTAL_BREAK_MS / 1000} s of silence`, place);
        items.push({ kind: "break", ms, place });
        break;
      }
      case "prosody": {
        next = { ...next };
        const did: string[] = [];
        for (const attribute of ["rate", "pitch", "volume"] as const satisfies readonly ProsodyAttribute[]) {
          const value = attr(attribute);
          if (value === undefined) continue;
          const parsed = prosodyValue(attribute, value);
          if (!parsed.ok) return refuse(parsed.reason, place);
          const { mode, factor } = parsed.value;
          next[attribute] = mode === "absolute" ? factor : next[attribute] * factor;
          did.push(`${attribute} ×${Math.round(next[attribute] * 1000) / 1000}`);
        }
        notes.push({ ...place, did: did.length > 0 ? did.join(", ") : "no rate, pitch or volume: nothing changes" });
        break;
      }
      case "say-as": {
        const as = attr("interpret-as");
        if (as === undefined) refuse("interpret-as is required", place);
        if (!(SAY_AS_KINDS as readonly string[]).includes(as ?? "")) {
          refuse(`interpret-as="${as}" is not one of ${SAY_AS_KINDS.join(", ")}`, place);
        }
        gathering = { tag: "say-as", place, text: "", as: as as SayAsKind, format: attr("format") };
        break;
      }
      case "phoneme": {
        const alphabet = attr("alphabet");
        const ph = attr("ph");
        if (alphabet !== "pinyin" && alphabet !== "jyutping") {
          refuse(`alphabet="${alphabet ?? ""}" is not supported; use alphabet="pinyin" or alphabet="jyutping"`, place);
        }
        if (ph === undefined) refuse("ph is required", place);
        const syllables = parseReading(ph ?? "", alphabet === "pinyin" ? "cmn" : "yue");
        if (!syllables) refuse(`ph="${ph}" is not valid ${alphabet === "pinyin" ? "pinyin" : "Jyutping"} with tone digits`, place);
        gathering = { tag: "phoneme", place, text: "", alphabet: alphabet as PhonemeAlphabet, syllables: syllables ?? [] };
        break;
      }
      case "sub": {
        const alias = attr("alias");
        if (alias === undefined) refuse("alias is required", place);
        gathering = { tag: "sub", place, text: "", alias: alias ?? "" };
        break;
      }
      case "p":
      case "s":
        items.push({ kind: "sentence" });
        notes.push({ ...place, did: ACCEPTED[tag.name] ?? "" });
        break;
      default:
        notes.push({
          ...place,
          did:
            ACCEPTED[tag.name] ??
            (tag.name === "audio"
              ? "not played: its text is spoken instead"
              : "not supported: its text is spoken as if the tag were not there"),
        });
    }
    open.push({ name: tag.name, prosody: next, place });
  });
  parser.on("text", addText);
  parser.on("cdata", addText);
  parser.on("closetag", (tag) => {
    const closing = open.pop();
    if (tag.name === "p" || tag.name === "s") items.push({ kind: "sentence" });
    if (!gathering || !closing || closing.name !== gathering.tag) return;
    const done = gathering;
    gathering = undefined;
    const content = done.text.replace(/\s+/g, " ").trim();
    if (done.tag === "sub") {
      notes.push({ ...done.place, did: `spoken as "${done.alias}" instead of "${content}"` });
      if ((done.alias ?? "").trim()) items.push({ kind: "text", text: done.alias ?? "", prosody: prosody() });
      return;
    }
    if (done.tag === "say-as") {
      const as = done.as ?? "characters";
      const problem = checkSayAs(as, content, done.format);
      if (problem !== undefined) refuse(problem, done.place);
      items.push({ kind: "say-as", as, format: done.format, text: content, prosody: prosody(), place: done.place });
      return;
    }
    const syllables = done.syllables ?? [];
    const problem = phonemeTarget(content, syllables.length);
    if (problem !== undefined) refuse(problem, done.place);
    items.push({ kind: "phoneme", alphabet: done.alphabet ?? "pinyin", syllables, text: content, prosody: prosody(), place: done.place });
  });

  try {
    parser.write(text.replace(/^\uFEFF/, "")).close();
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, error: error.detail };
    throw error;
  }
  return { ok: true, document: { items, notes } };
}

/** A phoneme covers one Han character per syllable, or one run of Latin letters and digits (any number of syllables). */
function phonemeTarget(content: string, syllables: number): string | undefined {
  const chars = [...content];
  if (chars.length === 0) return "<phoneme> must contain the text it gives the reading of";
  if (chars.every(isHan)) {
    return chars.length === syllables ? undefined : `ph has ${syllables} syllables for ${chars.length} characters`;
  }
  if (/^[A-Za-z0-9]+$/.test(content)) return undefined;
  return "<phoneme> must contain only Han characters (one syllable each) or one run of Latin letters and digits";
}
