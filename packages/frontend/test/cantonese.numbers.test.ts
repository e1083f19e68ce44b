import { describe, expect, it } from "vitest";
import { readText } from "../src/index.js";

/** The Jyutping syllables of a Cantonese reading, as one string for readable failures. */
const jyutping = (text: string): string => readText(text, { dialect: "yue" }).syllables.join(" ");
const normalized = (text: string): string => readText(text, { dialect: "yue" }).normalized;

describe("Cantonese integers", () => {
  it("reads 零 once for each run of zeros inside the number", () => {
    expect(jyutping("105人")).toBe("jat1 baak3 ling4 ng5 jan4");
    expect(jyutping("1001份")).toBe("jat1 cin1 ling4 jat1 fan6");
    expect(jyutping("1010")).toBe("jat1 cin1 ling4 jat1 sap6");
  });

  it("says 十 rather than 一十 at the start, and keeps 一十 inside", () => {
    expect(jyutping("11戶")).toBe("sap6 jat1 wu6");
    expect(jyutping("110個")).toBe("jat1 baak3 jat1 sap6 go3");
  });

  it("reads 20 as 二十, never the colloquial 廿", () => {
    expect(jyutping("20人")).toBe("ji6 sap6 jan4");
    expect(jyutping("22個")).toBe("ji6 sap6 ji6 go3");
  });

  it("says 兩 for a leading 2 of 千 and 萬, 二 for 二百 and in 1234", () => {
    expect(jyutping("2000個")).toBe("loeng5 cin1 go3");
    expect(jyutping("20000蚊")).toBe("loeng5 maan6 man1");
    expect(jyutping("1234間")).toBe("jat1 cin1 ji6 baak3 saam1 sap6 sei3 gaan1");
  });

  it("reads thousands separators as one number", () => {
    expect(jyutping("3,500個座位")).toBe("saam1 cin1 ng5 baak3 go3 zo6 wai2");
  });

  it("writes the number out in Han characters in the normalised text", () => {
    expect(normalized("今日有105人")).toBe("今日有一百零五人");
  });
});

describe("Cantonese 兩 and 二 before measure words", () => {
  it("says 兩 for a lone 2 before a measure word", () => {
    expect(jyutping("2個")).toBe("loeng5 go3");
    expect(jyutping("2隻狗")).toBe("loeng5 zek3 gau2");
    expect(jyutping("2架車")).toBe("loeng5 gaa3 ce1");
    expect(jyutping("2分鐘")).toBe("loeng5 fan1 zung1");
  });

  it("says 二 for an ordinal, a month and a bare number", () => {
    expect(jyutping("第2")).toBe("dai6 ji6");
    expect(jyutping("2月")).toBe("ji6 jyut6");
    expect(jyutping("結果係2")).toBe("git3 gwo2 hai6 ji6");
  });

  it("keeps 十二 before a measure word", () => {
    expect(jyutping("12隻貓")).toBe("sap6 ji6 zek3 maau1");
  });
});

describe("Cantonese decimals and negative numbers", () => {
  it("reads the whole part as a number and the decimals digit by digit after 點", () => {
    expect(jyutping("3.14")).toBe("saam1 dim2 jat1 sei3");
    expect(jyutping("0.8毫米")).toBe("ling4 dim2 baat3 hou4 mai5");
    expect(jyutping("20.06點")).toBe("ji6 sap6 dim2 ling4 luk6 dim2");
  });

  it("reads a minus sign as 負", () => {
    expect(jyutping("結果係-5")).toBe("git3 gwo2 hai6 fu6 ng5");
    expect(jyutping("-0.5")).toBe("fu6 ling4 dim2 ng5");
    expect(jyutping("-7加10等於3")).toBe("fu6 cat1 gaa1 sap6 dang2 jyu1 saam1");
  });

  it("reads a temperature below zero as 零下, with ℃ or with 度", () => {
    expect(jyutping("-3℃")).toBe("sip3 si6 ling4 haa6 saam1 dou6");
    expect(jyutping("跌到-10度")).toBe("dit3 dou3 ling4 haa6 sap6 dou6");
  });
});

describe("Cantonese percentages and fractions", () => {
  it("reads % as 百分之 baak3 fan6 zi1 before the number", () => {
    expect(jyutping("5%")).toBe("baak3 fan6 zi1 ng5");
    expect(jyutping("12.5%")).toBe("baak3 fan6 zi1 sap6 ji6 dim2 ng5");
    expect(jyutping("100%")).toBe("baak3 fan6 zi1 jat1 baak3");
    expect(jyutping("-1.2%")).toBe("fu6 baak3 fan6 zi1 jat1 dim2 ji6");
    expect(jyutping("5‰")).toBe("cin1 fan6 zi1 ng5");
  });

  it("reads a fraction denominator first, with 分之", () => {
    expect(jyutping("3/4個")).toBe("sei3 fan6 zi1 saam1 go3");
    expect(jyutping("1/10嘅機會")).toBe("sap6 fan6 zi1 jat1 ge3 gei1 wui6");
    expect(normalized("2/3嘅議員")).toBe("三分之二嘅議員");
  });

  it("reads 分之 written in Han characters as fan6", () => {
    expect(jyutping("三分之二")).toBe("saam1 fan6 zi1 ji6");
  });
});

describe("Cantonese money", () => {
  it("reads HK$ as 港元 after the amount", () => {
    expect(jyutping("HK$38")).toBe("saam1 sap6 baat3 gong2 jyun4");
    expect(jyutping("HK$1,200萬")).toBe("jat1 cin1 ji6 baak3 maan6 gong2 jyun4");
  });

  it("reads $ and ¥ and 元 as 元, dropping the trailing zero of the cents", () => {
    expect(jyutping("$120")).toBe("jat1 baak3 ji6 sap6 jyun4");
    expect(jyutping("¥12.5")).toBe("sap6 ji6 dim2 ng5 jyun4");
    expect(jyutping("12.5元")).toBe("sap6 ji6 dim2 ng5 jyun4");
    expect(jyutping("HK$2.50")).toBe("ji6 dim2 ng5 gong2 jyun4");
  });

  it("says 兩 for two dollars and keeps 蚊 as written", () => {
    expect(jyutping("2元")).toBe("loeng5 jyun4");
    expect(jyutping("500蚊")).toBe("ng5 baak3 man1");
  });

  it("names other currencies after the amount", () => {
    expect(jyutping("US$999")).toBe("gau2 baak3 gau2 sap6 gau2 mei5 jyun4");
    expect(jyutping("€15")).toBe("sap6 ng5 au1 jyun4");
    expect(jyutping("£99")).toBe("gau2 sap6 gau2 jing1 bong6");
  });
});

describe("Cantonese dates and years", () => {
  const date = "ji6 ling4 ji6 luk6 nin4 sap6 jat1 jyut6 ji6 sap6 ji6 jat6";

  it("reads 年月日 and ISO dates alike, the year digit by digit", () => {
    expect(jyutping("2026年11月22日")).toBe(date);
    expect(jyutping("2026-11-22")).toBe(date);
    expect(jyutping("2024/2/29")).toBe("ji6 ling4 ji6 sei3 nin4 ji6 jyut6 ji6 sap6 gau2 jat6");
  });

  it("reads a month/day date with 日 when the day cannot be a month", () => {
    expect(jyutping("11/22")).toBe("sap6 jat1 jyut6 ji6 sap6 ji6 jat6");
    expect(normalized("11/22開學")).toBe("十一月二十二日開學");
  });

  it("keeps 號 where the text writes 號, and 二 for the second day", () => {
    expect(jyutping("3月8號")).toBe("saam1 jyut6 baat3 hou6");
    expect(jyutping("5月2日")).toBe("ng5 jyut6 ji6 jat6");
  });

  it("reads years digit by digit with 零 ling4", () => {
    expect(jyutping("1997年")).toBe("jat1 gau2 gau2 cat1 nin4");
    expect(jyutping("2008年")).toBe("ji6 ling4 ling4 baat3 nin4");
    expect(jyutping("1995-2000年")).toBe("jat1 gau2 gau2 ng5 zi3 ji6 ling4 ling4 ling4 nin4");
  });

  it("reads a number of years as a number", () => {
    expect(jyutping("有3000年歷史")).toBe("jau5 saam1 cin1 nin4 lik6 si2");
    expect(jyutping("超過1000年")).toBe("ciu1 gwo3 jat1 cin1 nin4");
  });
});

describe("Cantonese times", () => {
  it("reads hours and minutes with 點 and 分", () => {
    expect(jyutping("14:30")).toBe("sap6 sei3 dim2 saam1 sap6 fan1");
    expect(jyutping("3點45分")).toBe("saam1 dim2 sei3 sap6 ng5 fan1");
  });

  it("keeps the written zero of the minutes and says 兩點 for two o'clock", () => {
    expect(jyutping("9:05")).toBe("gau2 dim2 ling4 ng5 fan1");
    expect(jyutping("2:00")).toBe("loeng5 dim2");
    expect(jyutping("下晝2點")).toBe("haa6 zau3 loeng5 dim2");
  });

  it("reads seconds", () => {
    expect(jyutping("12:05:30")).toBe("sap6 ji6 dim2 ling4 ng5 fan1 saam1 sap6 miu5");
  });
});

describe("Cantonese phone numbers", () => {
  it("reads phone numbers digit by digit with 1 jat1 and 0 ling4", () => {
    expect(jyutping("致電2890 1234")).toBe("zi3 din6 ji6 baat3 gau2 ling4 jat1 ji6 saam1 sei3");
    expect(jyutping("+852 2123 4567")).toBe("baat3 ng5 ji6 ji6 jat1 ji6 saam1 sei3 ng5 luk6 cat1");
  });

  it("pauses between the groups of a number as written", () => {
    expect(normalized("致電2345 6789")).toBe("致電二三四五，六七八九");
  });

  it("dials the number after 號碼係 and after 打", () => {
    expect(jyutping("號碼係108")).toBe("hou6 maa5 hai6 jat1 ling4 baat3");
    expect(jyutping("請打999")).toBe("cing2 daa2 gau2 gau2 gau2");
    expect(jyutping("打999，唔好驚")).toBe("daa2 gau2 gau2 gau2 m4 hou2 geng1");
  });

  it("does not dial a count after 打", () => {
    expect(jyutping("打100次")).toBe("daa2 jat1 baak3 ci3");
  });
});

describe("Cantonese ranges", () => {
  it("reads a dash or tilde between numbers as 至", () => {
    expect(jyutping("3-5次")).toBe("saam1 zi3 ng5 ci3");
    expect(jyutping("6~12歲")).toBe("luk6 zi3 sap6 ji6 seoi3");
  });

  it("says 兩 at either end before a measure word", () => {
    expect(jyutping("2-3個星期")).toBe("loeng5 zi3 saam1 go3 sing1 kei4");
    expect(jyutping("1-2件")).toBe("jat1 zi3 loeng5 gin6");
  });

  it("reads ranges of percentages and times", () => {
    expect(jyutping("10%-20%")).toBe("baak3 fan6 zi1 sap6 zi3 baak3 fan6 zi1 ji6 sap6");
    expect(jyutping("10:00-22:00")).toBe("sap6 dim2 zi3 ji6 sap6 ji6 dim2");
  });
});

describe("Cantonese units", () => {
  it("names metric units in Cantonese", () => {
    expect(jyutping("42.195km")).toBe("sei3 sap6 ji6 dim2 jat1 gau2 ng5 gung1 lei5");
    expect(jyutping("20kg")).toBe("ji6 sap6 gung1 gan1");
    expect(jyutping("175cm")).toBe("jat1 baak3 cat1 sap6 ng5 lei4 mai5");
    expect(jyutping("500mg")).toBe("ng5 baak3 hou4 hak1");
    expect(jyutping("50km/h")).toBe("ng5 sap6 gung1 lei5 mui5 siu2 si4");
    expect(jyutping("80m²")).toBe("baat3 sap6 ping4 fong1 mai5");
  });

  it("says 兩 for two of a unit", () => {
    expect(jyutping("2L")).toBe("loeng5 sing1");
  });

  it("names the temperature scale before the number", () => {
    expect(jyutping("33℃")).toBe("sip3 si6 saam1 sap6 saam1 dou6");
    expect(jyutping("8°C")).toBe("sip3 si6 baat3 dou6");
  });
});

describe("Cantonese full-width digits and signs", () => {
  it("reads full-width digits, signs and letters as their ASCII forms", () => {
    expect(jyutping("１８區")).toBe(jyutping("18區"));
    expect(jyutping("２８℃")).toBe("sip3 si6 ji6 sap6 baat3 dou6");
    expect(jyutping("１０％")).toBe("baak3 fan6 zi1 sap6");
    expect(jyutping("ＨＫ＄５０")).toBe("ng5 sap6 gong2 jyun4");
    expect(jyutping("Ａ級")).toBe("ei1 kap1");
  });

  it("reads a full-width date as a date", () => {
    expect(jyutping("２０２６年１１月２２日")).toBe(jyutping("2026年11月22日"));
  });
});
