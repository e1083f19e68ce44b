import { describe, expect, it } from "vitest";
import { corpusFile, loadCorpus, syllableErrors } from "../src/eval/corpus.js";
import { parseLexicon, readText } from "../src/index.js";

const jyutping = (text: string, lexicon?: ReturnType<typeof parseLexicon>): string =>
  readText(text, { dialect: "yue", lexicon }).syllables.join(" ");

describe("Cantonese inline overrides", () => {
  it("gives a Han character the bracketed reading and drops the brackets", () => {
    const reading = readText("我哋行[haang4]咗好耐", { dialect: "yue" });
    expect(reading.syllables.join(" ")).toBe("ngo5 dei6 haang4 zo2 hou2 noi6");
    expect(reading.normalized).toBe("我哋行咗好耐");
  });

  it("overrides a polyphone against the library's reading", () => {
    expect(jyutping("呢個字讀行[hong4]")).toBe("ni1 go3 zi6 duk6 hong4");
    expect(jyutping("行[hang4]")).toBe("hang4");
    expect(jyutping("單[sin6]先生")).toBe("sin6 sin1 saang1");
  });

  it("overrides several characters, in Simplified text too", () => {
    expect(jyutping("长沙湾[coeng4 saa1 waan1]好近")).toBe("coeng4 saa1 waan1 hou2 kan5");
  });

  it("overrides a run of digits", () => {
    expect(jyutping("2046[ji6 ling4 sei3 luk6]")).toBe("ji6 ling4 sei3 luk6");
  });

  it("leaves brackets that hold no Jyutping as text, its letters spelt", () => {
    expect(jyutping("行長[abc]")).toBe("hong4 zoeng2 en:abc");
    expect(jyutping("行長[ABC]")).toBe("hong4 zoeng2 ei1 bi1 si1");
  });
});

describe("the Cantonese operator lexicon", () => {
  const lexicon = parseLexicon("yue\t行長\thang4 coeng4\nyue\t银行\tngan2 hong4\nyue\tiPhone\taai1 fung1\n");

  it("wins over the library's reading of a word", () => {
    expect(jyutping("長沙銀行行長", lexicon)).toBe("coeng4 saa1 ngan2 hong4 hang4 coeng4");
  });

  it("matches a word written in either script", () => {
    expect(jyutping("银行行长", lexicon)).toBe("ngan2 hong4 hang4 coeng4");
  });

  it("reads a Latin word whole instead of spelling it", () => {
    expect(jyutping("買iPhone", lexicon)).toBe("maai5 aai1 fung1");
  });

  it("loses to an inline override", () => {
    expect(jyutping("行[hong4]長", lexicon)).toBe("hong4 zoeng2");
  });
});

describe("the Cantonese evaluation corpus", () => {
  const items = loadCorpus(corpusFile("yue"));

  it("has at least 230 sentences in every category, 40 of them Simplified", () => {
    const categories = new Map<string, number>();
    for (const item of items) categories.set(item.category, (categories.get(item.category) ?? 0) + 1);
    expect(items.length).toBeGreaterThanOrEqual(230);
    expect(categories.get("simplified")).toBeGreaterThanOrEqual(40);
    expect(categories.get("polyphone")).toBeGreaterThanOrEqual(30);
    const required =
      "general polyphone colloquial simplified integer decimal negative percent fraction money date time year phone range unit fullwidth latin emoji override punctuation measure";
    for (const category of required.split(" ")) expect(categories.get(category) ?? 0, category).toBeGreaterThanOrEqual(8);
  });

  it("is read at 97.5% syllable accuracy or better, tones included", () => {
    let syllables = 0;
    let errors = 0;
    for (const item of items) {
      syllables += item.gold.length;
      errors += syllableErrors(item.gold, readText(item.text, { dialect: "yue" }).syllables);
    }
    expect(1 - errors / syllables).toBeGreaterThanOrEqual(0.975);
  });
});
