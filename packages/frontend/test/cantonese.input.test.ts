import { describe, expect, it } from "vitest";
import { readText } from "../src/index.js";

const engine = (text: string): string => readText(text, { dialect: "yue" }).engineInput;

describe("Cantonese engine input", () => {
  it("joins a syllable that starts with a voiced consonant to the phoneme word before it", () => {
    // 日 j-, 飲 j-: espeak-ng glides into them from the tone before instead of from the bottom of the voice.
    expect(engine("我哋今日去飲茶")).toBe("[[N'o5 d'ei6 g'a1mj'a6t h'eoi3j'a2m c'aa4]]");
    // A syllabic nasal is voiced too (唔 m4), and a clause starts a word whatever its first syllable.
    expect(engine("你唔嚟，我嚟。")).toBe("[[n'ei5'm-4l'ei4]], [[N'o5l'ei4]].");
  });

  it("starts a new word for a voiceless initial or a vowel", () => {
    expect(engine("詩史試時市事")).toBe("[[s'i1 s'i2 s'i3 s'i4 s'i5 s'i6]]");
    expect(engine("好耐")).toBe("[[h'ou2n'oi6]]");
    expect(engine("我愛你")).toBe("[[N'o5 'oi3n'ei5]]");
  });

  it("keeps a run of voiced syllables to at most 8 a word", () => {
    const words = engine("嗯嗯嗯嗯嗯嗯嗯嗯嗯嗯").slice(2, -2).split(" ");
    expect(words.map((word) => word.split("'").length - 1)).toEqual([8, 2]);
  });
});
