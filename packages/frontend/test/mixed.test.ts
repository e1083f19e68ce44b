import { describe, expect, it } from "vitest";
import { parseLexicon, readText } from "../src/index.js";

const read = (text: string, dialect: "cmn" | "yue", lexicon?: ReturnType<typeof parseLexicon>) =>
  readText(text, { dialect, ...(lexicon ? { lexicon } : {}) });
const pinyin = (text: string) => read(text, "cmn").syllables.join(" ");
const jyutping = (text: string) => read(text, "yue").syllables.join(" ");

describe("English inside Chinese", () => {
  it("speaks an English word as one word, in both dialects, and spells acronyms and single letters", () => {
    expect(jyutping("我今日好busy，send個email俾你。")).toBe("ngo5 gam1 jat6 hou2 en:busy en:send go3 en:email bei2 nei5");
    expect(pinyin("我用iPhone打电话给Tom。")).toBe("wo3 yong4 en:iphone da3 dian4 hua4 gei3 en:tom");
    expect(pinyin("GDP和AI")).toBe("ji4 di4 pi4 he2 ei1 ai4");
    expect(pinyin("这件T恤")).toBe("zhe4 jian4 ti4 xu4");
    expect(jyutping("我哋喺McDonald's食飯")).toBe("ngo5 dei6 hai2 en:mcdonald's sik6 faan6");
    expect(jyutping("去McDonald’s check-in")).toBe("heoi3 en:mcdonald's en:check-in");
    expect(read("去McDonald’s", "yue").engineInput).toBe("[[h'eoi3]] McDonald's");
  });

  it("keeps the Chinese reading of the numbers beside an English word", () => {
    expect(pinyin("他用iPhone 15拍照")).toBe("ta1 yong4 en:iphone shi2 wu3 pai1 zhao4");
  });

  it("gives the engine the word as written between two phoneme runs, in the same clause", () => {
    const { engineInput } = read("我用iPhone打电话", "cmn");
    expect(engineInput).toMatch(/^\[\[[^\]]+\]\] iPhone \[\[[^\]]+\]\]$/);
    expect(read("佢喺Google做engineer。", "yue").engineInput).toBe("[[k'eoi5 h'ai2]] Google [[z'ou6]] engineer.");
  });

  it("reads an English word the operator lexicon lists with its Chinese reading, in either case, as a whole word", () => {
    const lexicon = parseLexicon("cmn\tiPhone\tai4 feng4\ncmn\tTom\ttang1 mu3\n");
    expect(read("我用iphone", "cmn", lexicon).syllables).toEqual(["wo3", "yong4", "ai4", "feng4"]);
    expect(read("Tomorrow和Tom", "cmn", lexicon).syllables).toEqual(["en:tomorrow", "he2", "tang1", "mu3"]);
  });
});

describe("surnames", () => {
  it("reads a surname before a title or a given name, and the character's usual reading elsewhere", () => {
    expect(pinyin("单老师和曾先生")).toBe("shan4 lao3 shi1 he2 zeng1 xian1 sheng5");
    expect(pinyin("请曾经理来一下")).toBe("qing3 zeng1 jing1 li3 lai2 yi1 xia4");
    expect(pinyin("尉迟先生")).toBe("yu4 chi2 xian1 sheng5");
    expect(pinyin("单志明是我的同事")).toBe("shan4 zhi4 ming2 shi4 wo3 de5 tong2 shi4");
    expect(pinyin("曾经有人来过")).toBe("ceng2 jing1 you3 ren2 lai2 guo4");
    expect(pinyin("他担任经理")).toBe("ta1 dan1 ren4 jing1 li3");
    expect(pinyin("他单独行动")).toBe("ta1 dan1 du2 xing2 dong4");
    expect(pinyin("华生是侦探")).toBe("hua2 sheng1 shi4 zhen1 tan4");
  });

  it("reads Cantonese surnames in Jyutping", () => {
    expect(jyutping("單老師同區經理")).toBe("sin6 lou5 si1 tung4 au1 ging1 lei5");
    expect(jyutping("曾太喺度")).toBe("zang1 taai2 hai2 dou6");
    expect(jyutping("任何人")).toBe("jam6 ho4 jan4");
  });
});

describe("segmentation traps", () => {
  it("reads a word that straddles a better split by the split", () => {
    expect(pinyin("他被子弹打中了")).toBe("ta1 bei4 zi3 dan4 da3 zhong4 le5");
    expect(pinyin("结婚的和尚未结婚的")).toBe("jie2 hun1 de5 he2 shang4 wei4 jie2 hun1 de5");
    expect(pinyin("老人被子女赶出家门")).toBe("lao3 ren2 bei4 zi3 nv3 gan3 chu1 jia1 men2");
    expect(jyutping("投降的士兵")).toBe("tau4 hong4 dik1 si6 bing1");
    expect(jyutping("研究生命嘅起源")).toBe("jin4 gau3 sang1 ming6 ge3 hei2 jyun4");
  });

  it("keeps the dictionary word where it is the right one", () => {
    expect(pinyin("这条被子很暖和")).toBe("zhe4 tiao2 bei4 zi5 hen3 nuan3 huo5");
    expect(pinyin("我们叫了一辆的士")).toBe("wo3 men5 jiao4 le5 yi1 liang4 di1 shi4");
    expect(pinyin("他好吃懒做")).toBe("ta1 hao4 chi1 lan3 zuo4");
  });
});

describe("Cantonese colloquial readings", () => {
  it("reads 重 'still' zung6, 行 haang4 when reduplicated and 嚟 lei4", () => {
    expect(jyutping("佢重未到")).toBe("keoi5 zung6 mei6 dou3");
    expect(jyutping("呢個袋好重")).toBe("ni1 go3 doi2 hou2 cung5");
    expect(jyutping("行行企企")).toBe("haang4 haang4 kei5 kei5");
    expect(jyutping("行行出狀元")).toBe("hong4 hong4 ceot1 zong6 jyun4");
    expect(jyutping("你幾時嚟")).toBe("nei5 gei2 si4 lei4");
  });
});

describe("rare characters", () => {
  it("reads characters of the CJK extensions from the Unihan table", () => {
    expect(pinyin("赵孟𫖯")).toBe("zhao4 meng4 fu3");
    expect(jyutping("我哋搭𨋢")).toBe("ngo5 dei6 daap3 lip1");
  });

  it("lists what nothing reads as unread instead of dropping it in silence", () => {
    const reading = read("我在𠮷野家吃饭", "cmn");
    expect(reading.unread).toEqual(["𠮷"]);
    expect(reading.syllables).toEqual(["wo3", "zai4", "ye3", "jia1", "chi1", "fan4"]);
    expect(read("寿司すし", "cmn").unread).toEqual(["す", "し"]);
    expect(read("你好", "cmn").unread).toEqual([]);
  });
});
