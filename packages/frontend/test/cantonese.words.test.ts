import { describe, expect, it } from "vitest";
import { readText } from "../src/index.js";
import { isTraditionalChar, keepTraditional } from "../src/text/traditional.js";

const jyutping = (text: string): string => readText(text, { dialect: "yue" }).syllables.join(" ");

describe("Cantonese polyphones", () => {
  it("reads 行 as hong4 for a bank or trade, hang4 to act, haang4 to walk, hang6 for conduct", () => {
    expect(jyutping("長沙銀行行長")).toBe("coeng4 saa1 ngan4 hong4 hong4 zoeng2");
    expect(jyutping("呢個行業")).toBe("ni1 go3 hong4 jip6");
    expect(jyutping("會議將於明日舉行")).toBe("wui6 ji5 zoeng1 jyu1 ming4 jat6 geoi2 hang4");
    expect(jyutping("我哋行路返屋企")).toBe("ngo5 dei6 haang4 lou6 faan1 uk1 kei2");
    expect(jyutping("他的品行")).toBe("taa1 dik1 ban2 hang6");
  });

  it("reads 長 as coeng4 long and zoeng2 to grow or a head", () => {
    expect(jyutping("呢條路好長")).toBe("ni1 tiu4 lou6 hou2 coeng4");
    expect(jyutping("細路仔長得好快")).toBe("sai3 lou6 zai2 zoeng2 dak1 hou2 faai3");
    expect(jyutping("校長")).toBe("haau6 zoeng2");
  });

  it("reads 樂, 重, 降 and 調 by the word they are in", () => {
    expect(jyutping("快樂")).toBe("faai3 lok6");
    expect(jyutping("音樂")).toBe("jam1 ngok6");
    expect(jyutping("好重要")).toBe("hou2 zung6 jiu3");
    expect(jyutping("重新")).toBe("cung4 san1");
    expect(jyutping("個箱好重")).toBe("go3 soeng1 hou2 cung5");
    expect(jyutping("降落")).toBe("gong3 lok6");
    expect(jyutping("投降")).toBe("tau4 hong4");
    expect(jyutping("請調低冷氣")).toBe("cing2 tiu4 dai1 laang5 hei3");
    expect(jyutping("調查")).toBe("diu6 caa4");
  });

  it("reads 傳, 好, 便, 覺, 差 and 間 by the word they are in", () => {
    expect(jyutping("傳統")).toBe("cyun4 tung2");
    expect(jyutping("自傳")).toBe("zi6 zyun6");
    expect(jyutping("好奇")).toBe("hou3 kei4");
    expect(jyutping("好奇怪")).toBe("hou2 kei4 gwaai3");
    expect(jyutping("方便")).toBe("fong1 bin6");
    expect(jyutping("好便宜")).toBe("hou2 pin4 ji4");
    expect(jyutping("瞓覺")).toBe("fan3 gaau3");
    expect(jyutping("覺得")).toBe("gok3 dak1");
    expect(jyutping("差唔多")).toBe("caa1 m4 do1");
    expect(jyutping("出差")).toBe("ceot1 caai1");
    expect(jyutping("參差")).toBe("caam1 ci1");
    expect(jyutping("間中")).toBe("gaan3 zung1");
    expect(jyutping("時間")).toBe("si4 gaan3");
  });

  it("reads 相, 分, 數 and 量 by their neighbours", () => {
    expect(jyutping("互相")).toBe("wu6 soeng1");
    expect(jyutping("首相")).toBe("sau2 soeng3");
    expect(jyutping("你睇吓呢張相")).toBe("nei5 tai2 haa5 ni1 zoeng1 soeng2");
    expect(jyutping("分開兩份")).toBe("fan1 hoi1 loeng5 fan6");
    expect(jyutping("大部分")).toBe("daai6 bou6 fan6");
    expect(jyutping("佢喺度數緊錢")).toBe("keoi5 hai2 dou6 sou2 gan2 cin2");
    expect(jyutping("數字")).toBe("sou3 zi6");
    expect(jyutping("量體溫")).toBe("loeng4 tai2 wan1");
    expect(jyutping("電量")).toBe("din6 loeng6");
  });

  it("reads 請 as cing2 please, ceng2 to treat", () => {
    expect(jyutping("請問")).toBe("cing2 man6");
    expect(jyutping("請坐")).toBe("cing2 co5");
    expect(jyutping("我請客")).toBe("ngo5 ceng2 haak3");
  });

  it("reads 呢 as ni1 this and ne1 at the end of a question", () => {
    expect(jyutping("呢度")).toBe("ni1 dou6");
    expect(jyutping("你呢？")).toBe("nei5 ne1");
  });

  it("reads 近 as kan5 near and gan6 in words", () => {
    expect(jyutping("好近")).toBe("hou2 kan5");
    expect(jyutping("附近")).toBe("fu6 gan6");
  });

  it("reads 為 as wai4 before a figure and wai6 for", () => {
    expect(jyutping("濃度為5‰")).toBe("nung4 dou6 wai4 cin1 fan6 zi1 ng5");
    expect(jyutping("佢為咗屋企")).toBe("keoi5 wai6 zo2 uk1 kei2");
  });
});

describe("Cantonese colloquial readings and changed tones", () => {
  it("reads colloquial characters", () => {
    expect(jyutping("你食咗飯未呀")).toBe("nei5 sik6 zo2 faan6 mei6 aa3");
    expect(jyutping("佢哋喺度等緊巴士")).toBe("keoi5 dei6 hai2 dou6 dang2 gan2 baa1 si2");
    expect(jyutping("冇問題，交俾我啦")).toBe("mou5 man6 tai4 gaau1 bei2 ngo5 laa1");
    expect(jyutping("噉樣做唔得㗎")).toBe("gam2 joeng2 zou6 m4 dak1 gaa3");
    expect(jyutping("佢畀咗啲嘢我")).toBe("keoi5 bei2 zo2 di1 je5 ngo5");
  });

  it("uses the standard changed tones", () => {
    expect(jyutping("嗰個女仔")).toBe("go2 go3 neoi5 zai2");
    expect(jyutping("佢個女")).toBe("keoi5 go3 neoi2");
    expect(jyutping("舊時")).toBe("gau6 si2");
    expect(jyutping("舊年")).toBe("gau6 nin2");
    expect(jyutping("電話")).toBe("din6 waa2");
    expect(jyutping("講英文")).toBe("gong2 jing1 man2");
    expect(jyutping("公園")).toBe("gung1 jyun2");
    expect(jyutping("醫院")).toBe("ji1 jyun2");
    expect(jyutping("每位")).toBe("mui5 wai2");
    expect(jyutping("呢間房")).toBe("ni1 gaan1 fong2");
  });

  it("keeps the tones that do not change", () => {
    expect(jyutping("一陣")).toBe("jat1 zan6");
    expect(jyutping("今日")).toBe("gam1 jat6");
    expect(jyutping("點解")).toBe("dim2 gaai2");
    expect(jyutping("中文")).toBe("zung1 man4");
  });

  it("reads 下 and 吓 after a verb as haa5", () => {
    expect(jyutping("出去行下")).toBe("ceot1 heoi3 haang4 haa5");
    expect(jyutping("試吓")).toBe("si3 haa5");
    expect(jyutping("樓下")).toBe("lau4 haa6");
    expect(jyutping("嚇親我")).toBe("haak3 can1 ngo5");
  });

  it("reads 坐 as co5 and 郁 as juk1", () => {
    expect(jyutping("佢坐喺度")).toBe("keoi5 co5 hai2 dou6");
    expect(jyutping("你搬唔郁")).toBe("nei5 bun1 m4 juk1");
  });
});

describe("Cantonese from Simplified and Traditional text", () => {
  const pairs: Array<[string, string]> = [
    ["银行行长今天出席会议。", "銀行行長今天出席會議。"],
    ["头发太长，要去剪发。", "頭髮太長，要去剪髮。"],
    ["干净的衣服放在柜里。", "乾淨的衣服放在櫃裏。"],
    ["只有一只猫。", "只有一隻貓。"],
    ["你睇吓呢张相。", "你睇吓呢張相。"],
    ["音乐会下个月举行。", "音樂會下個月舉行。"],
  ];

  it.each(pairs)("reads %s as it reads %s", (simplified, traditional) => {
    expect(jyutping(simplified)).toBe(jyutping(traditional));
  });

  it("reads Simplified text with the Traditional readings", () => {
    expect(jyutping("头发")).toBe("tau4 faat3");
    expect(jyutping("干净")).toBe("gon1 zeng6");
    expect(jyutping("一只猫")).toBe("jat1 zek3 maau1");
  });

  it("shows the Traditional text in the normalised text", () => {
    expect(readText("银行行长", { dialect: "yue" }).normalized).toBe("銀行行長");
  });

  it("keeps Hong Kong characters that are also Simplified forms in Traditional text", () => {
    expect(readText("你搬唔郁，睇吓", { dialect: "yue" }).normalized).toBe("你搬唔郁，睇吓");
    expect(jyutping("佢哋喺葵涌返工")).toBe("keoi5 dei6 hai2 kwai4 cung1 faan1 gung1");
  });
});

describe("the Traditional character set", () => {
  it("knows Traditional characters, Hong Kong ones included, and not Simplified-only ones", () => {
    expect(["銀", "們", "郁", "涌", "吓", "里"].every(isTraditionalChar)).toBe(true);
    expect(["银", "们", "这", "个"].some(isTraditionalChar)).toBe(false);
  });

  it("keeps the original of Traditional text and the conversion of Simplified text", () => {
    expect(keepTraditional("睇吓", "睇嚇")).toBe("睇吓");
    expect(keepTraditional("这里", "這裏")).toBe("這裏");
  });
});

describe("Cantonese letters, symbols and punctuation", () => {
  it("spells acronyms with Hong Kong letter names", () => {
    expect(jyutping("IBM")).toBe("aai1 bi1 em1");
    expect(jyutping("GDP")).toBe("zi1 di1 pi1");
    expect(jyutping("MTR")).toBe("em1 ti1 aa1 lou4");
    expect(jyutping("5G網絡")).toBe("ng5 zi1 mong5 lok6");
  });

  it("reads 卡 after letters as kaat1 and 房 as fong2", () => {
    expect(jyutping("ID卡")).toBe("aai1 di1 kaat1");
    expect(jyutping("VIP房")).toBe("wi1 aai1 pi1 fong2");
  });

  it("skips emoji and symbols without a sound or an error", () => {
    expect(jyutping("生日快樂🎂🎉")).toBe("saang1 jat6 faai3 lok6");
    expect(jyutping("★重要通知★")).toBe("zung6 jiu3 tung1 zi1");
    expect(jyutping("👨‍👩‍👧一家人✈️")).toBe("jat1 gaa1 jan4");
    expect(readText("🎉🎉", { dialect: "yue" }).syllables).toEqual([]);
  });

  it("turns punctuation into pauses without reading it", () => {
    const reading = readText("「多謝你。」佢話：好！", { dialect: "yue" });
    expect(reading.syllables.join(" ")).toBe("do1 ze6 nei5 keoi5 waa6 hou2");
    expect(reading.normalized).toBe("多謝你。佢話：好！");
    expect(jyutping("唉……真係冇辦法")).toBe("aai1 zan1 hai6 mou5 baan6 faat3");
  });
});
