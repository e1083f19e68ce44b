/**
 * Surnames. A character read otherwise as a surname (单 shan4, 曾 zeng1, 解
 * xie4) takes that reading where the text shows it is a name: after 姓,
 * before a title or a form of address (单老师, 曾先生, 曾经理, 曾太), or as a
 * one-character word at the start of a clause before a two-character given
 * name and a verb (单|志明|是我的同事). Elsewhere the character keeps the
 * library's reading (单独, 曾经, 担任经理, 华人).
 */

import type { Dialect, Unit } from "./types.js";

const MANDARIN: Readonly<Record<string, string>> = {
  曾: "zeng1",
  解: "xie4",
  单: "shan4",
  單: "shan4",
  查: "zha1",
  仇: "qiu2",
  朴: "piao2",
  区: "ou1",
  區: "ou1",
  盖: "ge3",
  蓋: "ge3",
  华: "hua4",
  華: "hua4",
  任: "ren2",
  乐: "yue4",
  缪: "miao4",
  尉: "yu4",
  种: "chong2",
  燕: "yan1",
  宁: "ning4",
  翟: "zhai2",
  覃: "qin2",
  召: "shao4",
  冼: "xian3",
  秘: "bi4",
};

const CANTONESE: Readonly<Record<string, string>> = {
  曾: "zang1",
  解: "haai6",
  單: "sin6",
  仇: "sau4",
  區: "au1",
  華: "waa6",
  任: "jam4",
  燕: "jin1",
  尉: "wat1",
  冼: "sin2",
};

/** Titles and forms of address that follow a surname, Simplified and Traditional. */
const TITLES = `先生 女士 小姐 太太 老师 老師 同学 同學 经理 經理 教授 主任 医生 醫生 主席 总 總 董事长 董事長 局长 局長
部长 部長 校长 校長 院长 院長 律师 律師 博士 师傅 師傅 阿姨 老板 老闆 总监 總監 书记 書記 处长 處長 科长 科長 警官 记者
記者 教练 教練 护士 護士 工程师 工程師 姑娘 伯伯 叔叔 姐姐 大哥 小弟 sir`
  .split(/\s+/)
  .sort((a, b) => b.length - a.length);

/** Cantonese also addresses people as surname + 生 "Mr" or 太 "Mrs" (曾生, 曾太); in Mandarin 华生 is a name. */
const CANTONESE_TITLES = ["生", "太"];

/** After one-character titles (生, 太, 总), these make another word of it: 曾太多, 华总部. */
const NOT_A_TITLE_AFTER = new Set([..."多少大小快慢早遲迟高低好差貴贵平重輕轻長长短熱热冷忙累部結结理活命物日產产气氣"]);

/** Words that can come before a full name: 叫, 是, 和 (他叫单志明, 我和单志明). */
const BEFORE_NAME = new Set([..."叫是和跟与與同给給找问問请請对對向让讓係喺"]);
/** What follows a full name as the subject or object of a clause. */
const AFTER_NAME = new Set([..."是说說在的和今明昨也都已正刚剛先又来來去给給跟同係喺話讲講打做"]);

const text = (units: readonly Unit[], i: number): string => units[i]?.text ?? "";

function titleAt(units: readonly Unit[], i: number, dialect: Dialect): boolean {
  const rest = units
    .slice(i, i + 3)
    .map((u) => u.text)
    .join("");
  const title = [...TITLES, ...(dialect === "yue" ? CANTONESE_TITLES : [])].find((t) => rest.startsWith(t));
  if (!title) return false;
  return title.length > 1 || !NOT_A_TITLE_AFTER.has(text(units, i + 1));
}

/**
 * The surname reading of units[i], or undefined when it is not used as a
 * surname here. `words` are the segmenter's [start, end) words of the clause.
 */
export function surnameReading(
  units: readonly Unit[],
  words: ReadonlyArray<readonly [number, number]>,
  i: number,
  dialect: Dialect,
): string | undefined {
  const reading = (dialect === "cmn" ? MANDARIN : CANTONESE)[text(units, i)];
  if (!reading) return undefined;
  if (text(units, i - 1) === "姓") return reading;
  // 尉迟 (Cantonese 尉遲) is a two-character surname.
  const compound = text(units, i) === "尉" && (text(units, i + 1) === "迟" || text(units, i + 1) === "遲");
  const word = words.find(([start, end]) => start <= i && i < end);
  // 担任|经理, 社区|经理: the character belongs to the word before it.
  if (!compound && word && word[0] < i) return undefined;
  if (titleAt(units, i + (compound ? 2 : 1), dialect)) return reading;
  if (compound) return reading;
  // 单|志明|是: a one-character word, then a two-character given name, at the start of a clause or after 叫/是/和.
  const next = words.find(([start]) => start === i + 1);
  const alone = word !== undefined && word[1] === i + 1;
  const opens = i === 0 || BEFORE_NAME.has(text(units, i - 1));
  return alone && opens && next && next[1] - next[0] === 2 && AFTER_NAME.has(text(units, next[1])) ? reading : undefined;
}
