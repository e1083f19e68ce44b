import { describe, expect, it } from "vitest";
import { corpusFile, loadCorpus, syllableErrors } from "../src/eval/corpus.js";
import { LexiconError, MAX_CLAUSE_SYLLABLES, parseLexicon, readText } from "../src/index.js";
import { wordsOf } from "../src/segment.js";
import { clausesOf } from "../src/split.js";
import type { Token } from "../src/types.js";

const pinyin = (text: string, lexicon?: ReturnType<typeof parseLexicon>): string =>
  readText(text, { dialect: "cmn", lexicon }).syllables.join(" ");
const engine = (text: string): string => readText(text, { dialect: "cmn" }).engineInput;

describe("Mandarin inline overrides", () => {
  it("gives a Han character the bracketed reading and does not speak the brackets", () => {
    const reading = readText("重[chong2]庆火锅", { dialect: "cmn" });
    expect(reading.syllables.join(" ")).toBe("chong2 qing4 huo3 guo1");
    expect(reading.normalized).toBe("重庆火锅");
  });

  it("overrides a polyphone against the library and the context rules", () => {
    expect(pinyin("行[hang2]")).toBe("hang2");
    expect(pinyin("这里的行[xing2]人很多")).toBe("zhe4 li3 de5 xing2 ren2 hen3 duo1");
    expect(pinyin("单[shan4]先生")).toBe("shan4 xian1 sheng5");
    expect(pinyin("他说的话很重[zhong4]要")).toBe("ta1 shuo1 de5 hua4 hen3 zhong4 yao4");
  });

  it("overrides several characters, or a run of letters and digits, at once", () => {
    expect(pinyin("北京朝阳[chao2 yang2]区")).toBe("bei3 jing1 chao2 yang2 qu1");
    expect(pinyin("型号X1[ai2 ke4 si1 yi1]")).toBe("xing2 hao4 ai2 ke4 si1 yi1");
    expect(pinyin("2046[er4 ling2 si4 liu4]")).toBe("er4 ling2 si4 liu4");
  });

  it("accepts ü written as v, u: or ü, and 0 for the neutral tone", () => {
    expect(pinyin("绿[lü4]")).toBe("lv4");
    expect(pinyin("绿[lu:4]")).toBe("lv4");
    expect(pinyin("的[de0]")).toBe("de5");
  });

  it("leaves brackets that hold no valid pinyin as text (documented fallback), without failing", () => {
    // Not a reading: the brackets are not spoken, the letters are spelt, the Han text is still read.
    expect(pinyin("重[ABC]庆")).toBe("zhong4 ei1 bi4 xi1 qing4");
    // A tone the language does not have is not a reading either.
    expect(() => readText("重[chong9]庆", { dialect: "cmn" })).not.toThrow();
    expect(readText("重[chong9]庆", { dialect: "cmn" }).syllables.slice(0, 1)).toEqual(["zhong4"]);
  });
});

describe("the Mandarin operator lexicon", () => {
  const lexicon = parseLexicon("# test\ncmn\t重庆\tzhong4 qing4\ncmn\t银行\tyin2 xing2\ncmn\tiPhone\tai4 feng4\n");

  it("wins over the library's reading of a word", () => {
    expect(pinyin("重庆很美", lexicon)).toBe("zhong4 qing4 hen3 mei3");
    expect(pinyin("长沙银行", lexicon)).toBe("chang2 sha1 yin2 xing2");
  });

  it("matches Traditional text too, and reads a Latin word whole", () => {
    expect(pinyin("銀行", lexicon)).toBe("yin2 xing2");
    expect(pinyin("买iPhone", lexicon)).toBe("mai3 ai4 feng4");
  });

  it("loses to an inline override", () => {
    expect(pinyin("重[chong2]庆", lexicon)).toBe("chong2 qing4");
  });

  it("rejects a file with a bad line, naming the line", () => {
    expect(() => parseLexicon("cmn\t重庆\tchong2\n", "lex.tsv")).toThrow(LexiconError);
    expect(() => parseLexicon("cmn\t重庆\tchong2\n", "lex.tsv")).toThrow(/lex\.tsv:1: "重庆" has 2 characters but 1 syllables/);
    expect(() => parseLexicon("cmn\t重庆\tchong9 qing4\n", "lex.tsv")).toThrow(/not a pinyin reading/);
  });
});

describe("the Mandarin engine input", () => {
  it("applies the 一 and 不 changes there, never in the syllables", () => {
    expect(pinyin("一定不是")).toBe("yi1 ding4 bu4 shi4");
    expect(engine("一定")).toBe("[[ji35t'i51N]]");
    expect(engine("一天")).toBe("[[ji51th'iE55n]]");
    expect(engine("不是")).toBe("[[pu35s.'i.51]]");
  });

  it("keeps 一 as a digit or an ordinal in its own tone", () => {
    expect(engine("第一")).toBe("[[ti51j'i55]]");
    expect(engine("十一")).toBe("[[s.i.35j'i55]]");
    expect(engine("一九九八年")).toBe("[[j,i55tS;iou214tS;iou214p'A55 n'iE35n]]");
  });

  it("leaves the third-tone change to espeak-ng: 你好 is given as two third tones in one word", () => {
    expect(pinyin("你好")).toBe("ni3 hao3");
    expect(engine("你好")).toBe("[[ni214X'Au214]]");
  });

  it("gives the neutral tone its own phoneme and each clause its pause mark", () => {
    expect(engine("妈妈")).toBe("[[mA55mA11]]");
    expect(engine("你好，世界。")).toBe("[[ni214X'Au214]], [[s.i.51tS;'iE51]].");
    expect(engine("你好吗？")).toBe("[[ni214X'Au214 mA11]]?");
  });
});

describe("Mandarin text around the words", () => {
  it("folds full-width digits, letters and punctuation", () => {
    expect(pinyin("我今年２５岁。")).toBe("wo3 jin1 nian2 er4 shi2 wu3 sui4");
    expect(pinyin("销量增长了１５％")).toBe("xiao1 liang4 zeng1 zhang3 le5 bai3 fen1 zhi1 shi2 wu3");
    expect(pinyin("时间：１４：３０")).toBe("shi2 jian1 shi2 si4 dian3 san1 shi2 fen1");
    expect(pinyin("温度：－３℃")).toBe("wen1 du4 ling2 xia4 san1 she4 shi4 du4");
    expect(readText("ＡＢＣ公司", { dialect: "cmn" }).normalized).toBe("ABC公司");
  });

  it("spells Latin letters by their Chinese names", () => {
    expect(pinyin("GDP")).toBe("ji4 di4 pi4");
    expect(pinyin("我喜欢看NBA")).toBe("wo3 xi3 huan5 kan4 en1 bi4 ei1");
    expect(pinyin("WIFI")).toBe("da2 bu5 liu5 ai4 ai2 fu5 ai4");
    expect(pinyin("WiFi")).toBe("en:wifi");
    expect(pinyin("5G时代")).toBe("wu3 ji4 shi2 dai4");
    expect(pinyin("CA1234航班")).toBe("xi1 ei1 yao1 er4 san1 si4 hang2 ban1");
  });

  it("skips emoji and symbols without error", () => {
    expect(pinyin("今天天气真好😊")).toBe("jin1 tian1 tian1 qi4 zhen1 hao3");
    expect(pinyin("👨‍👩‍👧 一家三口")).toBe("yi1 jia1 san1 kou3");
    expect(pinyin("★重要通知★")).toBe("zhong4 yao4 tong1 zhi1");
    expect(pinyin("原价→现价")).toBe("yuan2 jia4 xian4 jia4");
    expect(readText("🎉🎉", { dialect: "cmn" })).toMatchObject({ syllables: [], engineInput: "" });
  });

  it("makes punctuation pauses and never reads it", () => {
    const reading = readText("《红楼梦》是名著。他说：“好的！”真的吗？！", { dialect: "cmn" });
    expect(reading.syllables.join(" ")).toBe("hong2 lou2 meng4 shi4 ming2 zhu4 ta1 shuo1 hao3 de5 zhen1 de5 ma5");
    expect(reading.normalized).toBe("红楼梦是名著。他说：好的！真的吗！");
    expect(pinyin("苹果、香蕉……橘子")).toBe("ping2 guo3 xiang1 jiao1 ju2 zi5");
  });
});

const PARAGRAPH =
  "春天来了公园里的花都开了孩子们在草地上放风筝老人们坐在长椅上聊天" +
  "城市的交通越来越方便地铁和公交把各个地方连在一起人们出行更加快捷" +
  "政府将继续加大对教育和医疗的投入让每个家庭都能享受到发展的成果，" +
  "科学家们正在研究新的能源技术希望减少污染保护我们共同的地球家园。";

describe("long Mandarin text", () => {
  const text = PARAGRAPH.repeat(Math.ceil(5000 / PARAGRAPH.length)).slice(0, 5000);
  const han = [...text].filter((char) => /\p{Script=Han}/u.test(char)).length;

  it("reads every Han character of a 5000-character text, one syllable each", () => {
    const reading = readText(text, { dialect: "cmn" });
    expect(reading.syllables).toHaveLength(han);
    expect(reading.syllables.every((s) => /^[a-z]+[1-5]$/.test(s))).toBe(true);
    // Each syllable is in the engine input once, with one tone.
    expect(reading.engineInput.match(/214|55|35|51|11/g)).toHaveLength(han);
  });

  it("splits long clauses only at word boundaries, into parts espeak-ng reads whole", () => {
    const units = [...PARAGRAPH.replace(/[，。]/g, "").repeat(3)].map((char) => ({ text: char, syllables: ["a1"], fixed: false }));
    const tokens: Token[] = units.map((unit) => ({ kind: "unit", unit }));
    const clauses = clausesOf(tokens);
    expect(clauses.length).toBeGreaterThan(1);
    expect(clauses.flatMap((clause) => clause.units)).toEqual(units);
    const wordStarts = new Set(wordsOf(units).map(([start]) => start));
    let at = 0;
    for (const clause of clauses) {
      expect(clause.units.length).toBeLessThanOrEqual(MAX_CLAUSE_SYLLABLES);
      expect(wordStarts.has(at)).toBe(true);
      at += clause.units.length;
    }
  });
});

describe("the Mandarin evaluation corpus", () => {
  const items = loadCorpus(corpusFile("cmn"));

  it("has at least 300 sentences and covers every category", () => {
    const categories = new Map<string, number>();
    for (const item of items) categories.set(item.category, (categories.get(item.category) ?? 0) + 1);
    expect(items.length).toBeGreaterThanOrEqual(300);
    expect(categories.get("polyphone")).toBeGreaterThanOrEqual(40);
    expect(categories.get("particle")).toBeGreaterThanOrEqual(40);
    const required =
      "general integer decimal negative percent fraction money date time year phone range unit fullwidth latin emoji override punctuation measure";
    for (const category of required.split(" ")) expect(categories.get(category) ?? 0, category).toBeGreaterThanOrEqual(12);
  });

  it("is read at 98.5% syllable accuracy or better, tones included", () => {
    let syllables = 0;
    let errors = 0;
    for (const item of items) {
      syllables += item.gold.length;
      errors += syllableErrors(item.gold, readText(item.text, { dialect: "cmn" }).syllables);
    }
    expect(1 - errors / syllables).toBeGreaterThanOrEqual(0.985);
  });
});
