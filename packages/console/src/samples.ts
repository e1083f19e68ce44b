/**
 * First sentences to try, by ISO 639-3 dialect code. Cantonese is written in
 * Traditional characters with its own words (嘅, 咗, 唔), as Hong Kong writes it.
 */
const SAMPLES: Record<string, readonly string[]> = {
  yue: ["早晨！今日天氣好好，我哋去公園行下啦。", "你食咗飯未呀？", "呢間茶餐廳嘅奶茶好出名，不過要排隊。", "唔該，一杯凍檸茶少甜。"],
  cmn: ["你好，欢迎使用方言语音合成。", "今天天气很好，我们去公园散步吧。", "一杯咖啡和两块蛋糕，一共三十八元。", "请问去火车站怎么走？"],
};

export function samplesFor(dialectCode: string | undefined): readonly string[] {
  return (dialectCode ? SAMPLES[dialectCode] : undefined) ?? [];
}

export function isSample(text: string): boolean {
  return Object.values(SAMPLES).some((list) => list.includes(text));
}
