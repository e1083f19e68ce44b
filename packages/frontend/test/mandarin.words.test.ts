import { describe, expect, it } from "vitest";
import { readText } from "../src/index.js";

const pinyin = (text: string): string => readText(text, { dialect: "cmn" }).syllables.join(" ");

describe("Mandarin polyphones chosen by word and context", () => {
  it("reads 长 as zhang3 for grow and head of, chang2 for long", () => {
    expect(pinyin("长沙银行行长")).toBe("chang2 sha1 yin2 hang2 hang2 zhang3");
    expect(pinyin("孩子长得真快")).toBe("hai2 zi5 zhang3 de5 zhen1 kuai4");
    expect(pinyin("脸上长了很多皱纹")).toBe("lian3 shang4 zhang3 le5 hen3 duo1 zhou4 wen2");
    expect(pinyin("这条裤子太长了")).toBe("zhe4 tiao2 ku4 zi5 tai4 chang2 le5");
    expect(pinyin("他是处长")).toBe("ta1 shi4 chu4 zhang3");
    expect(pinyin("国家长期发展")).toBe("guo2 jia1 chang2 qi1 fa1 zhan3");
    expect(pinyin("家长期望很高")).toBe("jia1 zhang3 qi1 wang4 hen3 gao1");
  });

  it("reads 还 as huan2 when something is given back, hai2 as the adverb", () => {
    expect(pinyin("按时还给图书馆")).toBe("an4 shi2 huan2 gei3 tu2 shu1 guan3");
    expect(pinyin("这笔钱我一定还你")).toBe("zhe4 bi3 qian2 wo3 yi1 ding4 huan2 ni3");
    expect(pinyin("他终于还上了房贷")).toBe("ta1 zhong1 yu2 huan2 shang4 le5 fang2 dai4");
    expect(pinyin("他还没吃饭")).toBe("ta1 hai2 mei2 chi1 fan4");
  });

  it("reads 行 as hang2 in trades and rows, xing2 for going and a travelling party", () => {
    expect(pinyin("行人请走人行横道")).toBe("xing2 ren2 qing3 zou3 ren2 xing2 heng2 dao4");
    expect(pinyin("他们一行五人抵达了机场")).toBe("ta1 men5 yi1 xing2 wu3 ren2 di3 da2 le5 ji1 chang3");
    expect(pinyin("各行各业")).toBe("ge4 hang2 ge4 ye4");
    expect(pinyin("在外资银行当经理")).toBe("zai4 wai4 zi1 yin2 hang2 dang1 jing1 li3");
  });

  it("reads 背, 重, 为 and 觉 by what surrounds them", () => {
    expect(pinyin("他背着书包")).toBe("ta1 bei1 zhe5 shu1 bao1");
    expect(pinyin("他背着妈妈出去了")).toBe("ta1 bei4 zhe5 ma1 ma5 chu1 qu4 le5");
    expect(pinyin("山峦重重叠叠")).toBe("shan1 luan2 chong2 chong2 die2 die2");
    expect(pinyin("他被选为班长")).toBe("ta1 bei4 xuan3 wei2 ban1 zhang3");
    expect(pinyin("以学习为主")).toBe("yi3 xue2 xi2 wei2 zhu3");
    expect(pinyin("他为大家做了很多好事")).toBe("ta1 wei4 da4 jia1 zuo4 le5 hen3 duo1 hao3 shi4");
    expect(pinyin("睡了一个好觉")).toBe("shui4 le5 yi1 ge4 hao3 jiao4");
  });

  it("reads 调, 中, 看, 种, 教, 数 and 只 as verbs where the context makes them verbs", () => {
    expect(pinyin("把他调到上海")).toBe("ba3 ta1 diao4 dao4 shang4 hai3");
    expect(pinyin("把空调温度调高一点")).toBe("ba3 kong1 tiao2 wen1 du4 tiao2 gao1 yi1 dian3");
    expect(pinyin("他买彩票中了大奖")).toBe("ta1 mai3 cai3 piao4 zhong4 le5 da4 jiang3");
    expect(pinyin("奶奶在家看孩子")).toBe("nai3 nai5 zai4 jia1 kan1 hai2 zi5");
    expect(pinyin("农民在地里种玉米")).toBe("nong2 min2 zai4 di4 li3 zhong4 yu4 mi3");
    expect(pinyin("这种水果")).toBe("zhe4 zhong3 shui3 guo3");
    expect(pinyin("他教我们游泳")).toBe("ta1 jiao1 wo3 men5 you2 yong3");
    expect(pinyin("去山区教书")).toBe("qu4 shan1 qu1 jiao1 shu1");
    expect(pinyin("他是个好学生")).toBe("ta1 shi4 ge4 hao3 xue2 sheng5");
    expect(pinyin("他数了三遍")).toBe("ta1 shu3 le5 san1 bian4");
    expect(pinyin("我只吃了一半")).toBe("wo3 zhi3 chi1 le5 yi1 ban4");
    expect(pinyin("一只小猫")).toBe("yi1 zhi1 xiao3 mao1");
  });

  it("reads 传 as zhuan4 for a biography, 都 as du1 for a capital, 落 as la4 for left behind", () => {
    expect(pinyin("水浒传是名著")).toBe("shui3 hu3 zhuan4 shi4 ming2 zhu4");
    expect(pinyin("消息传遍了全村")).toBe("xiao1 xi5 chuan2 bian4 le5 quan2 cun1");
    expect(pinyin("古都西安")).toBe("gu3 du1 xi1 an1");
    expect(pinyin("我把钥匙落在家里了")).toBe("wo3 ba3 yao4 shi5 la4 zai4 jia1 li3 le5");
  });

  it("reads a surname after 姓 by its surname reading", () => {
    expect(pinyin("他姓曾")).toBe("ta1 xing4 zeng1");
    expect(pinyin("她姓解")).toBe("ta1 xing4 xie4");
    expect(pinyin("他姓单")).toBe("ta1 xing4 shan4");
  });

  it("reads 谁 as shei2", () => {
    expect(pinyin("这是谁的书包")).toBe("zhe4 shi4 shei2 de5 shu1 bao1");
  });
});

describe("Mandarin structural particles", () => {
  it("reads 得 as de5 after a verb, dei3 for must, de2 for obtain", () => {
    expect(pinyin("他跑得很快")).toBe("ta1 pao3 de5 hen3 kuai4");
    expect(pinyin("我得走了")).toBe("wo3 dei3 zou3 le5");
    expect(pinyin("我们必须得按时完成")).toBe("wo3 men5 bi4 xu1 dei3 an4 shi2 wan2 cheng2");
    expect(pinyin("他在考试中得到了满分")).toBe("ta1 zai4 kao3 shi4 zhong1 de2 dao4 le5 man3 fen1");
    expect(pinyin("他在比赛中得了两分")).toBe("ta1 zai4 bi3 sai4 zhong1 de2 le5 liang3 fen1");
    expect(pinyin("他的问题得到了解决")).toBe("ta1 de5 wen4 ti2 de2 dao4 le5 jie3 jue2");
  });

  it("reads 地 as de5 after an adverbial word and di4 as a noun", () => {
    expect(pinyin("他高兴地说")).toBe("ta1 gao1 xing4 de5 shuo1");
    expect(pinyin("孩子们慢慢地走进教室")).toBe("hai2 zi5 men5 man4 man4 de5 zou3 jin4 jiao4 shi4");
    expect(pinyin("这块地适合种小麦")).toBe("zhe4 kuai4 di4 shi4 he2 zhong4 xiao3 mai4");
    expect(pinyin("地上有很多落叶")).toBe("di4 shang4 you3 hen3 duo1 luo4 ye4");
  });

  it("reads 了 as liao3 in potential complements and 了解, le5 elsewhere", () => {
    expect(pinyin("这件事我办不了")).toBe("zhe4 jian4 shi4 wo3 ban4 bu4 liao3");
    expect(pinyin("明天你来得了吗")).toBe("ming2 tian1 ni3 lai2 de5 liao3 ma5");
    expect(pinyin("了解情况")).toBe("liao3 jie3 qing2 kuang4");
    expect(pinyin("他吃了饭就走了")).toBe("ta1 chi1 le5 fan4 jiu4 zou3 le5");
  });

  it("reads 着 as zhe5, zhao2 and zhuo2", () => {
    expect(pinyin("门开着")).toBe("men2 kai1 zhe5");
    expect(pinyin("我躺下就睡着了")).toBe("wo3 tang3 xia4 jiu4 shui4 zhao2 le5");
    expect(pinyin("他找着钥匙了")).toBe("ta1 zhao3 zhao2 yao4 shi5 le5");
    expect(pinyin("我们要着眼于长远发展")).toBe("wo3 men5 yao4 zhuo2 yan3 yu2 chang2 yuan3 fa1 zhan3");
  });

  it("reads sentence particles with the neutral tone", () => {
    expect(pinyin("你吃饭了吗？")).toBe("ni3 chi1 fan4 le5 ma5");
    expect(pinyin("你在干什么呢？")).toBe("ni3 zai4 gan4 shen2 me5 ne5");
    expect(pinyin("好啦，我们走吧")).toBe("hao3 la5 wo3 men5 zou3 ba5");
  });
});

describe("Mandarin neutral-tone words", () => {
  it("reads the standard unstressed syllables with tone 5", () => {
    expect(pinyin("我的朋友")).toBe("wo3 de5 peng2 you5");
    expect(pinyin("什么时候出发")).toBe("shen2 me5 shi2 hou5 chu1 fa1");
    expect(pinyin("谢谢你")).toBe("xie4 xie5 ni3");
    expect(pinyin("这个箱子很重")).toBe("zhe4 ge5 xiang1 zi5 hen3 zhong4");
    expect(pinyin("爷爷奶奶")).toBe("ye2 ye5 nai3 nai5");
    expect(pinyin("早上好")).toBe("zao3 shang5 hao3");
  });

  it("keeps full tones where the same characters make another word", () => {
    expect(pinyin("东西很便宜")).toBe("dong1 xi5 hen3 pian2 yi5");
    expect(pinyin("东西方向的道路")).toBe("dong1 xi1 fang1 xiang4 de5 dao4 lu4");
    expect(pinyin("大学生们在上课")).toBe("da4 xue2 sheng1 men5 zai4 shang4 ke4");
    expect(pinyin("男子和女子")).toBe("nan2 zi3 he2 nv3 zi3");
    expect(pinyin("一个人")).toBe("yi1 ge4 ren2");
  });

  it("keeps the lexical tones of 一 and 不 in the syllables", () => {
    expect(pinyin("一定不是")).toBe("yi1 ding4 bu4 shi4");
    expect(pinyin("看一看")).toBe("kan4 yi5 kan4");
    expect(pinyin("星星一闪一闪")).toBe("xing1 xing5 yi1 shan3 yi1 shan3");
  });
});
