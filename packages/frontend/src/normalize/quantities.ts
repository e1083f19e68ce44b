/** Measure words, unit symbols and currencies: what may follow a number, per dialect. */

import type { Dialect } from "../types.js";
import { type Phrase, phrase } from "./vocabulary.js";

const MEASURE_WORDS: Record<Dialect, readonly string[]> = {
  cmn: words(
    "个 位 本 只 条 张 件 次 天 年 岁 块 元 角 毛 分 秒 点 斤 克 米 里 人 辆 台 双 对 家 间 层 瓶 杯 碗 份 种 样 遍 趟 回 下 声 句 篇 首 部 片 颗 棵 朵 根 支 枝 把 匹 头 口 架 艘 座 所 封 套 批 群 名 倍 周 星期 户 场 顿 节 页 行 排 扇 幅 盏 粒 滴 桶 盒 包 袋 箱 吨 升 亩 顶 项 笔 门 副 届 轮 段 千 万 亿 成 小时 分钟 公里 公斤 千米 厘米 毫米 平方 立方 辈 代 步 拳 脚 眼 刀 圈 集 季 晚 夜 餐 幢 栋 款 则 章 组 队 票 份 册 卷 盘 局 起 例 宗 桩 尊 株 尾 串 束 捆 堆 锅 壶 罐 盆 碟 列 刻 寸 尺 磅 公顷 英里 海里 光年 千克 毫克 毫升 平米 室 厅 卫",
  ),
  yue: words(
    "個 位 本 隻 條 張 件 次 日 天 年 歲 塊 蚊 元 毫 角 分 秒 點 斤 克 米 里 人 輛 架 部 台 對 雙 家 間 層 樽 瓶 杯 碗 份 種 樣 遍 趟 回 下 聲 句 篇 首 片 粒 棵 朵 根 支 枝 把 匹 頭 口 艘 座 所 封 套 批 群 名 倍 星期 個月 個鐘 戶 場 餐 節 頁 行 排 扇 幅 盞 滴 桶 盒 包 袋 箱 噸 升 畝 頂 項 筆 門 副 屆 輪 段 千 萬 億 成 小時 分鐘 公里 公斤 千米 厘米 毫米 平方 立方 代 步 眼 刀 圈 集 季 晚 夜 款 則 章 組 隊 票 碟 煲 啖 轉 舊 嚿 架 粒",
  ),
};

/** Words that start with a measure word but make an ordinal or a name: 二年级, 八十年代. */
const NOT_QUANTITY = ["年级", "年級", "年代"];

function words(list: string): readonly string[] {
  return list.split(" ").sort((a, b) => b.length - a.length);
}

/** Whether `rest` (the text after a number) starts with a measure word, so that 2 is 两/兩. */
export function startsWithMeasureWord(rest: string, dialect: Dialect): boolean {
  if (NOT_QUANTITY.some((w) => rest.startsWith(w))) return false;
  return MEASURE_WORDS[dialect].some((w) => rest.startsWith(w));
}

interface UnitSymbol {
  symbol: string;
  cmn: Phrase;
  yue: Phrase;
}

function unit(symbol: string, cmn: [string, string], yue: [string, string]): UnitSymbol {
  return { symbol, cmn: phrase(...cmn), yue: phrase(...yue) };
}

/** Longest symbols first, so km/h wins over km and m. Letters match case-sensitively. */
export const UNIT_SYMBOLS: readonly UnitSymbol[] = [
  unit("km/h", ["公里每小时", "gong1 li3 mei3 xiao3 shi2"], ["公里每小時", "gung1 lei5 mui5 siu2 si4"]),
  unit("m/s", ["米每秒", "mi3 mei3 miao3"], ["米每秒", "mai5 mui5 miu5"]),
  unit("km²", ["平方公里", "ping2 fang1 gong1 li3"], ["平方公里", "ping4 fong1 gung1 lei5"]),
  unit("m²", ["平方米", "ping2 fang1 mi3"], ["平方米", "ping4 fong1 mai5"]),
  unit("㎡", ["平方米", "ping2 fang1 mi3"], ["平方米", "ping4 fong1 mai5"]),
  unit("m³", ["立方米", "li4 fang1 mi3"], ["立方米", "laap6 fong1 mai5"]),
  unit("kWh", ["千瓦时", "qian1 wa3 shi2"], ["千瓦時", "cin1 ngaa5 si4"]),
  unit("kW", ["千瓦", "qian1 wa3"], ["千瓦", "cin1 ngaa5"]),
  unit("km", ["公里", "gong1 li3"], ["公里", "gung1 lei5"]),
  unit("cm", ["厘米", "li2 mi3"], ["厘米", "lei4 mai5"]),
  unit("mm", ["毫米", "hao2 mi3"], ["毫米", "hou4 mai5"]),
  unit("kg", ["公斤", "gong1 jin1"], ["公斤", "gung1 gan1"]),
  unit("mg", ["毫克", "hao2 ke4"], ["毫克", "hou4 hak1"]),
  unit("ml", ["毫升", "hao2 sheng1"], ["毫升", "hou4 sing1"]),
  unit("mL", ["毫升", "hao2 sheng1"], ["毫升", "hou4 sing1"]),
  unit("ms", ["毫秒", "hao2 miao3"], ["毫秒", "hou4 miu5"]),
  unit("min", ["分钟", "fen1 zhong1"], ["分鐘", "fan1 zung1"]),
  unit("Hz", ["赫兹", "he4 zi1"], ["赫茲", "hak1 zi1"]),
  unit("m", ["米", "mi3"], ["米", "mai5"]),
  unit("g", ["克", "ke4"], ["克", "hak1"]),
  unit("L", ["升", "sheng1"], ["升", "sing1"]),
  unit("h", ["小时", "xiao3 shi2"], ["小時", "siu2 si4"]),
  unit("s", ["秒", "miao3"], ["秒", "miu5"]),
];

export interface Temperature {
  symbol: string;
  /** Cantonese names the scale before the number (攝氏二十五度), Mandarin after it (二十五摄氏度). */
  before: Record<Dialect, Phrase | undefined>;
  after: Record<Dialect, Phrase>;
}

const CANTONESE_DEGREE = phrase("度", "dou6");

export const TEMPERATURES: readonly Temperature[] = [
  ...["℃", "°C"].map((symbol) => ({
    symbol,
    before: { cmn: undefined, yue: phrase("攝氏", "sip3 si6") },
    after: { cmn: phrase("摄氏度", "she4 shi4 du4"), yue: CANTONESE_DEGREE },
  })),
  ...["℉", "°F"].map((symbol) => ({
    symbol,
    before: { cmn: undefined, yue: phrase("華氏", "waa4 si6") },
    after: { cmn: phrase("华氏度", "hua2 shi4 du4"), yue: CANTONESE_DEGREE },
  })),
  { symbol: "°", before: { cmn: undefined, yue: undefined }, after: { cmn: phrase("度", "du4"), yue: CANTONESE_DEGREE } },
];

export interface Currency {
  symbol: string;
  name: Record<Dialect, Phrase>;
}

/** In Hong Kong a bare $ is the Hong Kong dollar; in Mandarin text it is the US dollar. */
export const CURRENCIES: readonly Currency[] = [
  currency("HK$", ["港元", "gang3 yuan2"], ["港元", "gong2 jyun4"]),
  currency("HKD", ["港元", "gang3 yuan2"], ["港元", "gong2 jyun4"]),
  currency("US$", ["美元", "mei3 yuan2"], ["美元", "mei5 jyun4"]),
  currency("USD", ["美元", "mei3 yuan2"], ["美元", "mei5 jyun4"]),
  currency("NT$", ["新台币", "xin1 tai2 bi4"], ["新台幣", "san1 toi4 bai6"]),
  currency("RMB", ["元", "yuan2"], ["元人民幣", "jyun4 jan4 man4 bai6"]),
  currency("CNY", ["元", "yuan2"], ["元人民幣", "jyun4 jan4 man4 bai6"]),
  currency("¥", ["元", "yuan2"], ["元", "jyun4"]),
  currency("$", ["美元", "mei3 yuan2"], ["元", "jyun4"]),
  currency("€", ["欧元", "ou1 yuan2"], ["歐元", "au1 jyun4"]),
  currency("£", ["英镑", "ying1 bang4"], ["英鎊", "jing1 bong6"]),
];

function currency(symbol: string, cmn: [string, string], yue: [string, string]): Currency {
  return { symbol, name: { cmn: phrase(...cmn), yue: phrase(...yue) } };
}
