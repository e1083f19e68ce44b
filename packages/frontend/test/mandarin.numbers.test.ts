import { describe, expect, it } from "vitest";
import { readText } from "../src/index.js";

const pinyin = (text: string): string => readText(text, { dialect: "cmn" }).syllables.join(" ");
const normalized = (text: string): string => readText(text, { dialect: "cmn" }).normalized;

describe("Mandarin integers", () => {
  it("reads 零 once for each run of zeros inside the number", () => {
    expect(pinyin("1001")).toBe("yi1 qian1 ling2 yi1");
    expect(pinyin("10010")).toBe("yi1 wan4 ling2 yi1 shi2");
    expect(pinyin("3050万")).toBe("san1 qian1 ling2 wu3 shi2 wan4");
    expect(normalized("105000人")).toBe("十万五千人");
  });

  it("says 十 rather than 一十 at the start and 一十 inside", () => {
    expect(pinyin("15")).toBe("shi2 wu3");
    expect(pinyin("110公里")).toBe("yi1 bai3 yi1 shi2 gong1 li3");
    expect(pinyin("100000")).toBe("shi2 wan4");
  });

  it("groups digits by 万 and 亿, ignoring thousands separators", () => {
    expect(pinyin("2,580,000元")).toBe("er4 bai3 wu3 shi2 ba1 wan4 yuan2");
    expect(pinyin("1400000000人")).toBe("shi2 si4 yi4 ren2");
    expect(pinyin("9600000平方公里")).toBe("jiu3 bai3 liu4 shi2 wan4 ping2 fang1 gong1 li3");
  });

  it("reads a score as 比 when a result is reported", () => {
    expect(pinyin("以3:1战胜对手")).toBe("yi3 san1 bi3 yi1 zhan4 sheng4 dui4 shou3");
    expect(pinyin("上半场0比0")).toBe("shang4 ban4 chang3 ling2 bi3 ling2");
  });

  it("reads codes after their name digit by digit, 1 as yao1", () => {
    expect(pinyin("房间号是1208")).toBe("fang2 jian1 hao4 shi4 yao1 er4 ling2 ba1");
    expect(pinyin("验证码385912")).toBe("yan4 zheng4 ma3 san1 ba1 wu3 jiu3 yao1 er4");
    expect(pinyin("301室")).toBe("san1 ling2 yao1 shi4");
  });
});

describe("Mandarin 两 and 二", () => {
  it("says 两 before a measure word and for a lone 2 before 千, 万 and 亿", () => {
    expect(pinyin("2个苹果")).toBe("liang3 ge4 ping2 guo3");
    expect(pinyin("2册")).toBe("liang3 ce4");
    expect(pinyin("2000人")).toBe("liang3 qian1 ren2");
    expect(pinyin("2万元")).toBe("liang3 wan4 yuan2");
    expect(pinyin("2亿元")).toBe("liang3 yi4 yuan2");
    expect(pinyin("2室1厅")).toBe("liang3 shi4 yi1 ting1");
  });

  it("says 二 in 十二, 二百, ordinals, dates, floors and arithmetic", () => {
    expect(pinyin("12岁")).toBe("shi2 er4 sui4");
    expect(pinyin("200个")).toBe("er4 bai3 ge4");
    expect(pinyin("第2名")).toBe("di4 er4 ming2");
    expect(pinyin("2月2日")).toBe("er4 yue4 er4 ri4");
    expect(pinyin("2号线")).toBe("er4 hao4 xian4");
    expect(pinyin("2楼")).toBe("er4 lou2");
    expect(pinyin("1+1=2")).toBe("yi1 jia1 yi1 deng3 yu2 er4");
  });
});

describe("Mandarin decimals, negatives, percentages and fractions", () => {
  it("reads the fraction part of a decimal digit by digit", () => {
    expect(pinyin("3.14159")).toBe("san1 dian3 yi1 si4 yi1 wu3 jiu3");
    expect(pinyin("0.03毫米")).toBe("ling2 dian3 ling2 san1 hao2 mi3");
    expect(pinyin("3.0版本")).toBe("san1 dian3 ling2 ban3 ben3");
    expect(normalized("1.75米")).toBe("一点七五米");
  });

  it("reads a minus sign as 负, and 零下 for a temperature", () => {
    expect(pinyin("余额为-200元")).toBe("yu2 e2 wei2 fu4 er4 bai3 yuan2");
    expect(pinyin("-0.8")).toBe("fu4 ling2 dian3 ba1");
    expect(pinyin("-5℃")).toBe("ling2 xia4 wu3 she4 shi4 du4");
    expect(pinyin("-3+5=2")).toBe("fu4 san1 jia1 wu3 deng3 yu2 er4");
  });

  it("reads a hyphen between words as no sign", () => {
    expect(pinyin("COVID-19")).toBe("xi1 ou1 wei1 ai4 di4 shi2 jiu3");
  });

  it("puts 百分之 and 千分之 before the number", () => {
    expect(pinyin("25%")).toBe("bai3 fen1 zhi1 er4 shi2 wu3");
    expect(pinyin("0.25%")).toBe("bai3 fen1 zhi1 ling2 dian3 er4 wu3");
    expect(pinyin("100%")).toBe("bai3 fen1 zhi1 yi1 bai3");
    expect(pinyin("-3.5%")).toBe("fu4 bai3 fen1 zhi1 san1 dian3 wu3");
    expect(pinyin("3‰")).toBe("qian1 fen1 zhi1 san1");
    expect(normalized("增长25%")).toBe("增长百分之二十五");
  });

  it("reads a slash as a fraction, denominator first", () => {
    expect(pinyin("3/4")).toBe("si4 fen1 zhi1 san1");
    expect(pinyin("1/2")).toBe("er4 fen1 zhi1 yi1");
    expect(pinyin("总数的1/20")).toBe("zong3 shu4 de5 er4 shi2 fen1 zhi1 yi1");
  });
});

describe("Mandarin money", () => {
  it("reads the amount, then the currency, dropping trailing zeros of the cents", () => {
    expect(pinyin("¥12.5")).toBe("shi2 er4 dian3 wu3 yuan2");
    expect(pinyin("12.5元")).toBe("shi2 er4 dian3 wu3 yuan2");
    expect(pinyin("¥3.50")).toBe("san1 dian3 wu3 yuan2");
    expect(pinyin("¥1,250,000")).toBe("yi1 bai3 er4 shi2 wu3 wan4 yuan2");
    expect(normalized("¥12.5")).toBe("十二点五元");
  });

  it("names dollars, euros and pounds, and says 两 for two of them", () => {
    expect(pinyin("$300")).toBe("san1 bai3 mei3 yuan2");
    expect(pinyin("€25")).toBe("er4 shi2 wu3 ou1 yuan2");
    expect(pinyin("£200")).toBe("er4 bai3 ying1 bang4");
    expect(pinyin("2元")).toBe("liang3 yuan2");
    expect(pinyin("15.8万元")).toBe("shi2 wu3 dian3 ba1 wan4 yuan2");
  });
});

describe("Mandarin dates, times and years", () => {
  it("reads the year digit by digit, then month and day", () => {
    expect(pinyin("2026年11月22日")).toBe("er4 ling2 er4 liu4 nian2 shi2 yi1 yue4 er4 shi2 er4 ri4");
    expect(pinyin("2026-11-22")).toBe("er4 ling2 er4 liu4 nian2 shi2 yi1 yue4 er4 shi2 er4 ri4");
    expect(pinyin("2024.12.31")).toBe("er4 ling2 er4 si4 nian2 shi2 er4 yue4 san1 shi2 yi1 ri4");
    expect(normalized("2026-11-22")).toBe("二零二六年十一月二十二日");
  });

  it("reads month/day as a date when the day cannot be a month, else as a fraction", () => {
    expect(pinyin("11/22")).toBe("shi2 yi1 yue4 er4 shi2 er4 ri4");
    expect(pinyin("5/20是")).toBe("wu3 yue4 er4 shi2 ri4 shi4");
    expect(pinyin("3/4")).toBe("si4 fen1 zhi1 san1");
  });

  it("reads years digit by digit before 年, and round numbers before 年代 as a decade", () => {
    expect(pinyin("1998年")).toBe("yi1 jiu3 jiu3 ba1 nian2");
    expect(pinyin("2000年")).toBe("er4 ling2 ling2 ling2 nian2");
    expect(pinyin("2010-2015年")).toBe("er4 ling2 yi1 ling2 dao4 er4 ling2 yi1 wu3 nian2");
    expect(pinyin("80年代")).toBe("ba1 shi2 nian2 dai4");
  });

  it("reads clock times with 点 and 分, a written zero and 两点", () => {
    expect(pinyin("14:30")).toBe("shi2 si4 dian3 san1 shi2 fen1");
    expect(pinyin("9:05")).toBe("jiu3 dian3 ling2 wu3 fen1");
    expect(pinyin("2:00")).toBe("liang3 dian3");
    expect(pinyin("3点45分")).toBe("san1 dian3 si4 shi2 wu3 fen1");
    expect(pinyin("下午2点")).toBe("xia4 wu3 liang3 dian3");
    expect(normalized("14:30")).toBe("十四点三十分");
  });
});

describe("Mandarin phone numbers", () => {
  it("reads a mobile number digit by digit in 3-4-4 groups, 1 as yao1", () => {
    expect(pinyin("13812345678")).toBe("yao1 san1 ba1 yao1 er4 san1 si4 wu3 liu4 qi1 ba1");
    expect(normalized("13812345678")).toBe("幺三八，幺二三四，五六七八");
  });

  it("reads landlines, service lines and short numbers after a dialling word", () => {
    expect(pinyin("010-62345678")).toBe("ling2 yao1 ling2 liu4 er4 san1 si4 wu3 liu4 qi1 ba1");
    expect(pinyin("(010) 1234 5678")).toBe("ling2 yao1 ling2 yao1 er4 san1 si4 wu3 liu4 qi1 ba1");
    expect(pinyin("400-123-4567")).toBe("si4 ling2 ling2 yao1 er4 san1 si4 wu3 liu4 qi1");
    expect(pinyin("请拨打110")).toBe("qing3 bo1 da3 yao1 yao1 ling2");
    expect(pinyin("报警请拨110，急救请拨120。")).toBe("bao4 jing3 qing3 bo1 yao1 yao1 ling2 ji2 jiu4 qing3 bo1 yao1 er4 ling2");
    expect(pinyin("分机号8012")).toBe("fen1 ji1 hao4 ba1 ling2 yao1 er4");
  });
});

describe("Mandarin ranges and units", () => {
  it("reads a range with 到, the measure word deciding 两 for both ends", () => {
    expect(pinyin("3-5个")).toBe("san1 dao4 wu3 ge4");
    expect(pinyin("2-3天")).toBe("liang3 dao4 san1 tian1");
    expect(pinyin("5~8岁")).toBe("wu3 dao4 ba1 sui4");
    expect(pinyin("10%-20%")).toBe("bai3 fen1 zhi1 shi2 dao4 bai3 fen1 zhi1 er4 shi2");
    expect(pinyin("10-15℃")).toBe("shi2 dao4 shi2 wu3 she4 shi4 du4");
    expect(pinyin("9:00-11:30")).toBe("jiu3 dian3 dao4 shi2 yi1 dian3 san1 shi2 fen1");
  });

  it("reads a dash after a date or time word as 到, not a minus sign", () => {
    expect(pinyin("11月22日-25日")).toBe("shi2 yi1 yue4 er4 shi2 er4 ri4 dao4 er4 shi2 wu3 ri4");
    expect(pinyin("3点-5点")).toBe("san1 dian3 dao4 wu3 dian3");
    expect(normalized("2020年-2025年")).toBe("二零二零年到二零二五年");
  });

  it("reads the slash of a rate as 每 and leaves other slashes unread", () => {
    expect(pinyin("100元/人")).toBe("yi1 bai3 yuan2 mei3 ren2");
    expect(pinyin("5公里/小时")).toBe("wu3 gong1 li3 mei3 xiao3 shi2");
    expect(pinyin("是/否")).toBe("shi4 fou3");
  });

  it("writes unit symbols out as Chinese units", () => {
    expect(pinyin("42km")).toBe("si4 shi2 er4 gong1 li3");
    expect(pinyin("10kg")).toBe("shi2 gong1 jin1");
    expect(pinyin("32℃")).toBe("san1 shi2 er4 she4 shi4 du4");
    expect(pinyin("120km/h")).toBe("yi1 bai3 er4 shi2 gong1 li3 mei3 xiao3 shi2");
    expect(pinyin("90m²")).toBe("jiu3 shi2 ping2 fang1 mi3");
    expect(pinyin("500ml")).toBe("wu3 bai3 hao2 sheng1");
    expect(pinyin("2kW")).toBe("liang3 qian1 wa3");
    expect(normalized("37.5℃")).toBe("三十七点五摄氏度");
  });
});
