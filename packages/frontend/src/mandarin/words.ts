/**
 * Words whose last syllable is unstressed (the neutral tone, 5) in the
 * standard language, as in the 普通话水平测试 list of obligatory neutral-tone
 * words that announcers are examined on (朋友 peng2 you5, 时候 shi2 hou5).
 * pinyin-pro knows some of them (孩子, 衣服) but reads many with the full tone
 * of the character; here they are read as a careful announcer says them.
 *
 * A word matches inside one of the segmenter's words (什么时候, 有意思, 早上好),
 * never across two; 学生 only as a whole word, since 大学生 and 学生会 keep
 * sheng1. `word=reading` gives the whole reading where the library's
 * syllables are wrong too (琢磨 "ponder" zuo2 mo5).
 */

import type { Unit } from "../types.js";
import { parsePinyin } from "./pinyin.js";

const NEUTRAL = `
朋友 学生 清楚 谢谢 眼睛 事情 商量 时候 意思 东西 消息 故事 道理 星星 先生 主意 早上 晚上 告诉
明白 舒服 麻烦 客气 地方 窗户 月亮 姑娘 热闹 打听 收拾 名字 脑袋 规矩 厉害 粮食 葡萄 玻璃 护士
招呼 笑话 脾气 运气 学问 本事 功夫 工夫 糊涂 马虎 老实 码头 打扮 欺负 媳妇 吩咐 太太 哪个 值得
认识 喜欢 休息 衣服 衣裳 漂亮 便宜 行李 头发 钥匙 结实 豆腐 耳朵 尾巴 嘴巴 下巴 哑巴 亲戚
萝卜 胳膊 生意 买卖 师傅 师父 力气 福气 委屈 折腾 娃娃 似的 知识 队伍 任务 凉快 暖和 聪明
答应 打量 爱人 苍蝇 包袱 称呼 大爷 点心 动静 对付 风筝 甘蔗 膏药 疙瘩 跟头 官司 闺女 含糊
合同 和尚 核桃 狐狸 葫芦 活泼 伙计 家伙 嫁妆 见识 将就 交情 街坊 戒指 咳嗽 口袋 窟窿 快活
喇叭 懒得 老婆 篱笆 利落 连累 溜达 骆驼 眉毛 迷糊 苗条 蘑菇 模糊 木匠 能耐 念叨 奴才 女婿
盘算 屁股 铺盖 勤快 扫帚 上司 烧饼 少爷 牲口 石榴 拾掇 使唤 收成 首饰 舒坦 疏忽 爽快
算计 岁数 特务 挑剔 跳蚤 铁匠 妥当 唾沫 挖苦 稳当 稀罕 吓唬 乡下 相声 小气 心思 秀才 秀气
丫头 衙门 胭脂 秧歌 养活 吆喝 妖精 应酬 冤枉 月饼 云彩 在乎 扎实 张罗 帐篷 招牌 芝麻 指甲
庄稼 状元 祖宗 妻子 记得 觉得 晓得 懂得 舍得 怎么 什么 这么 那么 多么 这个 那个
馒头 骨头 舌头 枕头 指头 拳头 念头 石头 木头 里头 外头 前头 后头 上头
爸爸 妈妈 哥哥 姐姐 弟弟 妹妹 爷爷 奶奶 叔叔 伯伯 姑姑 舅舅 婶婶 姥姥 姥爷 婆婆 公公 宝宝
琢磨=zuo2 mo5 作坊=zuo1 fang5 亲家=qing4 jia5
`;

/** Neutral-tone words that are full-tone when the next word makes them another word: 东西方向, 地方政府. */
const FULL_BEFORE: Record<string, string> = {
  东西: "方向走长两南部横宽距之侧轴线城",
  地方: "政官财性法特保病戏志税债当党部领经企银媒选立主化标武军自各",
  买卖: "双交",
  生意: "盎",
};

const READINGS: ReadonlyMap<string, string[] | undefined> = new Map(
  NEUTRAL.trim()
    .split(/\s+(?![a-z])/)
    .map((entry) => {
      const [word = "", reading] = entry.split("=");
      return [word, reading?.split(" ")] as const;
    }),
);

/** Neutral only as the whole of a segmenter word. */
const WHOLE_ONLY = new Set(["学生"]);

/** The longest neutral-tone word, in characters. */
const LONGEST = Math.max(...[...READINGS.keys()].map((w) => w.length));

/** Reads the neutral-tone words inside the segmenter's words; other units are returned as they are. */
export function applyNeutralWords(units: readonly Unit[], words: ReadonlyArray<readonly [number, number]>): Unit[] {
  const out = [...units];
  for (const [start, end] of words) {
    for (let at = start; at < end - 1; ) {
      const length = matchAt(units, at, start, end);
      if (length === 0) {
        at++;
        continue;
      }
      const span = units.slice(at, at + length);
      const word = span.map((unit) => unit.text).join("");
      const last = span.length - 1;
      const syllables =
        READINGS.get(word) ?? span.map((unit, k) => (k === last ? neutral(unit.syllables[0] ?? "") : (unit.syllables[0] ?? "")));
      span.forEach((unit, k) => {
        out[at + k] = { ...unit, syllables: [syllables[k] ?? ""] };
      });
      at += length;
    }
  }
  return out;
}

/** The length of the longest neutral-tone word at `at` inside the segmenter word [start, end), or 0. */
function matchAt(units: readonly Unit[], at: number, start: number, end: number): number {
  for (let length = Math.min(LONGEST, end - at); length >= 2; length--) {
    const span = units.slice(at, at + length);
    if (span.some((unit) => unit.fixed || unit.syllables.length !== 1)) continue;
    const word = span.map((unit) => unit.text).join("");
    if (!READINGS.has(word)) continue;
    if (WHOLE_ONLY.has(word) && (at !== start || at + length !== end)) continue;
    if (FULL_BEFORE[word]?.includes(units[at + length]?.text ?? "\u0000")) continue;
    return length;
  }
  return 0;
}

function neutral(syllable: string): string {
  const parsed = parsePinyin(syllable);
  return parsed ? `${parsed.base}5` : syllable;
}
