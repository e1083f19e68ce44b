/**
 * Words to-jyutping reads wrongly, with their standard Hong Kong readings:
 * polyphones in context and the colloquial changed tones (變音) that are the
 * norm in speech. General vocabulary, not sentences. Each entry was checked
 * against the library: one it already reads right does not belong here.
 *
 * to-jyutping matches its dictionary greedily, longest word first from the
 * left, so an entry also decides where the words around it start: 小心地滑
 * is here because the library otherwise takes 小心地 ("carefully") first.
 */
export const CANTONESE_WORDS: Record<string, string> = {
  // 行: hong4 a trade or a row, hang4 to go or act, haang4 to walk (colloquial)
  行長: "hong4 zoeng2",
  排行: "paai4 hong4",
  發行: "faat3 hang4",

  // 長: coeng4 long, zoeng2 to grow or an elder / head
  長得: "zoeng2 dak1",

  // 調: tiu4 to adjust, diu6 to transfer or a tune
  調低: "tiu4 dai1",
  調高: "tiu4 gou1",

  // 上: soeng5 the verb "go up", soeng6 the noun "above"
  上升: "soeng5 sing1",
  上漲: "soeng5 zoeng3",
  上調: "soeng5 tiu4",

  // 空: hung3 free time
  有空: "jau5 hung3",
  冇空: "mou5 hung3",
  得空: "dak1 hung3",

  // 好 hou2 "very" before 奇怪, not the hou3 of 好奇 "curious"
  好奇怪: "hou2 kei4 gwaai3",
  好奇特: "hou2 kei4 dak6",
  好奇妙: "hou2 kei4 miu6",

  // Readings of the written language that the library gives in a colloquial variant
  中文: "zung1 man4",
  便宜: "pin4 ji4",
  自傳: "zi6 zyun6",
  會場: "wui6 coeng4",
  午覺: "ng5 gaau3",
  倒水: "dou3 seoi2",
  數錢: "sou2 cin2",
  相處: "soeng1 cyu5",
  出面: "ceot1 min6",
  間房: "gaan1 fong2",
  幾大: "gei2 daai6",
  小心地滑: "siu2 sam1 dei6 waat6",

  // Colloquial words the library reads in a literary or variant reading
  睇片: "tai2 pin2",

  // Standard changed tones (變音)
  舊時: "gau6 si2",
  // 個女 "one's daughter" neoi2, but 個女仔 "the girl" neoi5 zai2
  個女: "go3 neoi2",
  個女仔: "go3 neoi5 zai2",
  個名: "go3 meng2",
  個名叫: "go3 meng2 giu3",
  張相: "zoeng1 soeng2",
  每位: "mui5 wai2",
  幾位: "gei2 wai2",
  近排: "gan6 paai2",
};
