/**
 * The 一 and 不 tone changes, applied to what the engine is given (never to
 * the reading itself, which keeps citation tones). espeak-ng does the
 * third-tone sandhi and the neutral tone's pitch itself, from the phonemes,
 * but it only knows 一/不 changes from its dictionary, which we bypass.
 *
 * 不 bu4 -> bu2 before a fourth tone (不是 bú shì). 一 yi1 -> yi2 before a
 * fourth tone and yi4 before the others (一定 yí dìng, 一天 yì tiān), except
 * where 一 is a digit or an ordinal: 第一, 十一, 统一, 一月, 一九九八.
 */

import type { Unit } from "../types.js";

/** Characters before 一 that make it the end of a number or an ordinal, not a numeral of quantity. */
const ORDINAL_BEFORE = "第十百千万亿零〇初统唯同单专划整合归逐其之期周拜一二三四五六七八九两";
/**
 * 一月, 一号, 一楼, 一等, 一流: names and ranks; and a digit after it makes it a
 * digit too, in a year or a code written in characters (一九九八年, 一二三).
 */
const ORDINAL_AFTER = "月号日楼等班期流线零〇一二三四五六七八九";

export function sandhiSyllables(units: readonly Unit[]): string[][] {
  return units.map((unit, i) => {
    if (unit.citation || unit.syllables.length !== 1) return unit.syllables;
    const syllable = unit.syllables[0] ?? "";
    const next = units[i + 1];
    const nextTone = Number(next?.syllables[0]?.slice(-1));
    if (!next || !nextTone) return unit.syllables;
    if (unit.text === "不" && syllable === "bu4") return [nextTone === 4 ? "bu2" : syllable];
    if (unit.text === "一" && syllable === "yi1") {
      const prev = units[i - 1]?.text ?? "";
      if ((prev && ORDINAL_BEFORE.includes(prev)) || ORDINAL_AFTER.includes(next.text)) return unit.syllables;
      return [nextTone === 4 || nextTone === 5 ? "yi2" : "yi4"];
    }
    return unit.syllables;
  });
}
