import { describe, expect, it } from "vitest";
import { type Dialect, isSsml, MAX_DEPTH, MAX_ELEMENTS, parseSsml, planSsml, readPieces, type SsmlError } from "../src/index.js";

function plan(ssml: string, ...dialect: [Dialect | undefined] | []) {
  const parsed = parseSsml(ssml);
  if (!parsed.ok) throw new Error(`refused: ${JSON.stringify(parsed.error)}`);
  return planSsml(parsed.document, dialect.length === 0 ? "cmn" : dialect[0]);
}

/** The syllables the front-end reads for the whole document, run after run. */
function syllables(ssml: string, dialect: Dialect = "cmn"): string {
  return plan(ssml, dialect)
    .runs.flatMap((run) => readPieces(run.pieces, { dialect }).syllables)
    .join(" ");
}

function refusal(ssml: string): SsmlError {
  const parsed = parseSsml(ssml);
  if (parsed.ok) throw new Error("accepted a document that should be refused");
  return parsed.error;
}

describe("what counts as SSML", () => {
  it("is a text that starts with <speak, after white space or a byte order mark", () => {
    expect(isSsml("<speak>你好</speak>")).toBe(true);
    expect(isSsml('  \n<speak version="1.1">你好</speak>')).toBe(true);
    expect(isSsml("\uFEFF<speak/>")).toBe(true);
    expect(isSsml("你好<speak>")).toBe(false);
    expect(isSsml("<speaker>你好</speaker>")).toBe(false);
    expect(isSsml("重[chong2]庆")).toBe(false);
  });
});

describe("breaks", () => {
  it("splits the text into runs with the break's silence after each, time winning over strength", () => {
    const { runs, leadingMs } = plan(
      '<speak><break time="1.5s"/>你好<break time="800ms"/>世界<break strength="strong"/><break/>再见<break time="300ms" strength="x-weak"/></speak>',
    );
    expect(leadingMs).toBe(1500);
    expect(runs.map((run) => [run.text, run.pauseAfterMs])).toEqual([
      ["你好", 800],
      ["世界", 750 + 500],
      ["再见", 300],
    ]);
  });

  it("maps every strength to a length, none being no silence", () => {
    const lengths = ["none", "x-weak", "weak", "medium", "strong", "x-strong"].map(
      (strength) => plan(`<speak>a<break strength="${strength}"/>b</speak>`).runs[0]?.pauseAfterMs,
    );
    expect(lengths).toEqual([0, 100, 250, 500, 750, 1000]);
  });

  it("refuses a break over 10 s, a bad time or strength, and breaks adding up to more than 60 s", () => {
    expect(refusal('<speak>a<break time="10001ms"/></speak>')).toMatchObject({ element: "break", reason: expect.stringContaining("10 s") });
    expect(refusal('<speak>a<break time="soon"/></speak>').reason).toContain('time="soon"');
    expect(refusal('<speak>a<break strength="huge"/></speak>').reason).toContain('strength="huge"');
    const seven = '<break time="10s"/>'.repeat(7);
    expect(refusal(`<speak>${seven}</speak>`).reason).toContain("60 s");
    expect(plan(`<speak>a${'<break time="10s"/>'.repeat(6)}</speak>`).runs[0]?.pauseAfterMs).toBe(60_000);
  });
});

describe("prosody", () => {
  it("multiplies nested relative values and lets an absolute value replace the enclosing one", () => {
    const { runs } = plan(
      '<speak>一<prosody rate="fast" pitch="+2st" volume="-6dB">二<prosody rate="-20%" volume="loud">三</prosody><prosody rate="x-slow">四</prosody></prosody>五</speak>',
    );
    const rounded = (n: number) => Number(n.toFixed(3));
    const prosody = runs.map((run) => [run.text, rounded(run.prosody.rate), rounded(run.prosody.pitch), rounded(run.prosody.volume)]);
    expect(prosody).toEqual([
      ["一", 1, 1, 1],
      ["二", 1.5, 1.122, 0.501],
      ["三", 1.2, 1.122, 1.5],
      ["四", 0.5, 1.122, 0.501],
      ["五", 1, 1, 1],
    ]);
  });

  it("reads percentages, multipliers, semitones, decibels and 0-100 volumes", () => {
    const one = (attributes: string) => plan(`<speak><prosody ${attributes}>字</prosody></speak>`).runs[0]?.prosody;
    expect(one('rate="150%"')?.rate).toBe(1.5);
    expect(one('rate="0.8"')?.rate).toBe(0.8);
    expect(one('pitch="-12st"')?.pitch).toBeCloseTo(0.5);
    expect(one('pitch="x-high"')?.pitch).toBe(1.5);
    expect(one('volume="50"')?.volume).toBe(0.5);
    expect(one('volume="silent"')?.volume).toBe(0);
  });

  it("refuses a value outside the request controls' range, or one it cannot read, saying which", () => {
    expect(refusal('<speak><prosody rate="300%">字</prosody></speak>')).toMatchObject({
      element: "prosody",
      line: 1,
      column: 8,
      reason: 'rate="300%" is ×3; the range is ×0.5 to ×2',
    });
    expect(refusal('<speak><prosody rate="-60%">字</prosody></speak>').reason).toContain("×0.4");
    expect(refusal('<speak><prosody pitch="200Hz">字</prosody></speak>').reason).toContain('pitch="200Hz"');
    expect(refusal('<speak><prosody volume="+20dB">字</prosody></speak>').reason).toContain("volume");
  });
});

describe("say-as", () => {
  it("reads digits one by one and a telephone number in groups, with 幺 in Mandarin", () => {
    expect(syllables('<speak><say-as interpret-as="digits">2046</say-as></speak>')).toBe("er4 ling2 si4 liu4");
    expect(syllables('<speak><say-as interpret-as="digits">110</say-as></speak>')).toBe("yi1 yi1 ling2");
    const phone = plan('<speak>请拨<say-as interpret-as="telephone">13812345678</say-as></speak>').runs[0];
    expect(phone?.text).toBe("请拨幺三八[yao1 san1 ba1]，幺二三四[yao1 er4 san1 si4]，五六七八[wu3 liu4 qi1 ba1]");
    expect(syllables('<speak><say-as interpret-as="telephone">+852 2345-6789</say-as></speak>', "yue")).toBe(
      "baat3 ng5 ji6 ji6 saam1 sei3 ng5 luk6 cat1 baat3 gau2",
    );
  });

  it("reads a number as a quantity, an ordinal with 第, money and dates, in both dialects", () => {
    expect(syllables('<speak>打<say-as interpret-as="cardinal">110</say-as>次</speak>')).toBe("da3 yi1 bai3 yi1 shi2 ci4");
    expect(syllables('<speak><say-as interpret-as="cardinal">-3.5</say-as></speak>', "yue")).toBe("fu6 saam1 dim2 ng5");
    expect(syllables('<speak><say-as interpret-as="ordinal">2</say-as></speak>')).toBe("di4 er4");
    expect(syllables('<speak><say-as interpret-as="ordinal">第12</say-as></speak>', "yue")).toBe("dai6 sap6 ji6");
    expect(syllables('<speak><say-as interpret-as="currency">HK$38.50</say-as></speak>', "yue")).toBe(
      "saam1 sap6 baat3 dim2 ng5 gong2 jyun4",
    );
    expect(syllables('<speak><say-as interpret-as="currency">12 USD</say-as></speak>')).toBe("shi2 er4 mei3 yuan2");
    expect(syllables('<speak><say-as interpret-as="date">2026-11-22</say-as></speak>')).toBe(
      "er4 ling2 er4 liu4 nian2 shi2 yi1 yue4 er4 shi2 er4 ri4",
    );
    expect(syllables('<speak><say-as interpret-as="date" format="mdy">3/8/2025</say-as></speak>', "yue")).toBe(
      "saam1 jyut6 baat3 jat6 ji6 ling4 ji6 ng5 nin4",
    );
  });

  it("spells characters: letters by their names, digits one by one", () => {
    expect(syllables('<speak><say-as interpret-as="characters">ok</say-as></speak>')).toBe("ou1 kai4");
    expect(syllables('<speak><say-as interpret-as="characters">A1</say-as></speak>', "yue")).toBe("ei1 jat1");
  });

  it("refuses content that is not what interpret-as says, an unknown interpret-as and a bad date format", () => {
    expect(refusal('<speak><say-as interpret-as="cardinal">twelve</say-as></speak>')).toMatchObject({
      element: "say-as",
      reason: expect.stringContaining('"twelve" is not a number'),
    });
    expect(refusal('<speak><say-as interpret-as="date">2026-13-01</say-as></speak>').reason).toContain("not a date");
    expect(refusal('<speak><say-as interpret-as="date" format="qq">1</say-as></speak>').reason).toContain('format="qq"');
    expect(refusal('<speak><say-as interpret-as="spell-out">1</say-as></speak>').reason).toContain("spell-out");
    expect(refusal('<speak><say-as interpret-as="telephone">none</say-as></speak>').reason).toContain("no digits");
    expect(refusal('<speak><say-as interpret-as="digits"><break/>1</say-as></speak>').reason).toContain("only text");
  });
});

describe("phoneme and sub", () => {
  it("speaks a phoneme's reading in place of the characters it covers", () => {
    expect(syllables("<speak>重庆</speak>")).toBe("chong2 qing4");
    expect(syllables('<speak><phoneme alphabet="pinyin" ph="zhong4">重</phoneme>庆</speak>')).toBe("zhong4 qing4");
    expect(syllables('<speak><phoneme alphabet="pinyin" ph="zhong4 qing4">重庆</phoneme></speak>')).toBe("zhong4 qing4");
    expect(syllables('<speak>銀<phoneme alphabet="jyutping" ph="hang4">行</phoneme></speak>', "yue")).toBe("ngan4 hang4");
    expect(syllables('<speak>型号<phoneme alphabet="pinyin" ph="ai2 ke4 si1 yi1">X1</phoneme></speak>')).toBe("xing2 hao4 ai2 ke4 si1 yi1");
  });

  it("ignores a phoneme in the other dialect's alphabet, and says so", () => {
    const { runs, notes } = plan('<speak><phoneme alphabet="jyutping" ph="cung4">重</phoneme>新</speak>');
    expect(readPieces(runs[0]?.pieces ?? [], { dialect: "cmn" }).syllables).toEqual(["chong2", "xin1"]);
    expect(notes.find((note) => note.element === "phoneme")?.did).toContain("ignored");
  });

  it("refuses a reading that is not pinyin or Jyutping, a syllable count that does not match, an unknown alphabet", () => {
    expect(refusal('<speak>\n  <phoneme alphabet="pinyin" ph="chong9">重</phoneme></speak>')).toEqual({
      line: 2,
      column: 3,
      element: "phoneme",
      reason: 'ph="chong9" is not valid pinyin with tone digits',
    });
    expect(refusal('<speak><phoneme alphabet="jyutping" ph="zung6 jiu3">重</phoneme></speak>').reason).toBe(
      "ph has 2 syllables for 1 characters",
    );
    expect(refusal('<speak><phoneme alphabet="ipa" ph="tʂʊŋ">重</phoneme></speak>').reason).toContain('alphabet="ipa"');
    expect(refusal('<speak><phoneme alphabet="pinyin">重</phoneme></speak>').reason).toBe("ph is required");
  });

  it("speaks a sub's alias instead of its content", () => {
    expect(plan('<speak><sub alias="世界卫生组织">WHO</sub>说</speak>').runs[0]?.text).toBe("世界卫生组织说");
    expect(refusal("<speak><sub>WHO</sub></speak>").reason).toBe("alias is required");
  });
});

describe("structure", () => {
  it("ends each <s> and <p> with a sentence pause, and collapses the document's white space", () => {
    const { runs } = plan("<speak>\n  <p>\n    <s>第一句</s>\n    <s>第二句！</s>\n  </p>\n  <p>标题</p>\n</speak>");
    expect(runs.map((run) => run.text.replace(/\s+/g, ""))).toEqual(["第一句。第二句！标题。"]);
    expect(readPieces(runs[0]?.pieces ?? [], { dialect: "cmn" }).normalized).toBe("第一句。第二句！标题。");
  });

  it("speaks the text of unknown elements, lang and audio, ignoring their tags, and notes each", () => {
    const { runs, notes } = plan(
      '<speak xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="zh-CN"><emphasis level="strong">很</emphasis>好<lang xml:lang="en">hello</lang><audio src="x.mp3">叮</audio><mark name="m"/></speak>',
    );
    expect(runs.map((run) => run.text)).toEqual(["很好hello叮"]);
    expect(notes.map((note) => [note.element, note.did.split(":")[0]])).toEqual([
      ["speak", "the document"],
      ["emphasis", "not supported"],
      ["lang", "read by the voice; Latin words are spoken as English words, as anywhere"],
      ["audio", "not played"],
      ["mark", "ignored (no timing events)"],
    ]);
  });

  it("gives a voice without front-end rules the content of say-as and phoneme as written", () => {
    const { runs } = plan(
      '<speak><say-as interpret-as="digits">12</say-as><phoneme alphabet="pinyin" ph="chong2">重</phoneme></speak>',
      undefined,
    );
    expect(runs[0]?.pieces).toEqual([
      { kind: "text", text: "12" },
      { kind: "text", text: "重" },
    ]);
  });
});

describe("malformed and pathological documents", () => {
  it("refuses XML that is not well-formed with the line and column where it breaks", () => {
    expect(refusal('<speak>\n  你好<break time="1s">世界</speak>')).toEqual({
      line: 2,
      column: 31,
      element: "speak",
      reason: "unexpected close tag",
    });
    expect(refusal("<speak>a &nbsp; b</speak>")).toMatchObject({ line: 1, reason: "undefined entity" });
    expect(refusal("<speak>unclosed")).toMatchObject({ reason: expect.stringContaining("unclosed") });
    expect(refusal('<speak a="1" a="2"/>').reason).toContain("duplicate attribute");
    expect(refusal("<speak>a</speak>b")).toMatchObject({ reason: "text data outside of root node" });
  });

  it("refuses a DOCTYPE, so no entity can expand", () => {
    const billion = '<!DOCTYPE speak [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><speak>&b;</speak>';
    expect(refusal(billion).reason).toMatch(/DOCTYPE/);
  });

  it("refuses a root other than speak", () => {
    expect(refusal("<p>x</p>")).toMatchObject({ line: 1, column: 1, element: "p", reason: "the root element must be <speak>" });
    expect(parseSsml("<speak/>").ok).toBe(true);
  });

  it(`refuses nesting deeper than ${MAX_DEPTH} and more than ${MAX_ELEMENTS} elements, at once`, () => {
    const deep = `<speak>${"<s>".repeat(MAX_DEPTH)}字${"</s>".repeat(MAX_DEPTH)}</speak>`;
    expect(refusal(deep)).toMatchObject({ element: "s", reason: `elements nested more than ${MAX_DEPTH} deep` });
    const justDeepEnough = `<speak>${"<s>".repeat(MAX_DEPTH - 1)}字${"</s>".repeat(MAX_DEPTH - 1)}</speak>`;
    expect(parseSsml(justDeepEnough).ok).toBe(true);
    const many = `<speak>${'<break time="1ms"/>'.repeat(MAX_ELEMENTS)}</speak>`;
    const started = performance.now();
    expect(refusal(many).reason).toBe(`more than ${MAX_ELEMENTS} elements`);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(refusal(`<speak>${"<mark/>".repeat(10_000)}</speak>`).reason).toBe(`more than ${MAX_ELEMENTS} elements`);
    // 10 000 breaks of the default 500 ms pass the 60 s of silence first.
    expect(refusal(`<speak>${"<break/>".repeat(10_000)}</speak>`).reason).toContain("60 s");
  });
});
