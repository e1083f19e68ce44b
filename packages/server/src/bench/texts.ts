/** The bench's texts: real Mandarin, and variants of one length so that no two runs share a cache entry. */

export const TEXT_100 =
  "今天天气很好，我们一起去公园散步吧。公园里有很多人，有的在跑步，有的在打太极拳，还有小朋友在放风筝。春天来了，花都开了，红的、黄的、白的，真漂亮！我们走累了就在湖边坐一会儿，看看湖里的鱼和天上的白云。";

// Clauses, so that there are far more orderings (13!) than the bench sends texts.
const SENTENCES = TEXT_100.split(/(?<=[。！，、])/u).filter(Boolean);

/** The i-th ordering of TEXT_100's clauses: the same characters and length, a different text. */
export function variant100(i: number): string {
  const pool = [...SENTENCES];
  const out: string[] = [];
  let n = i;
  while (pool.length > 0) {
    const [picked] = pool.splice(n % pool.length, 1);
    n = Math.floor(n / (pool.length + 1));
    if (picked !== undefined) out.push(picked);
  }
  return out.join("");
}

/** 5 000 characters, the longest text the API takes, starting at the i-th variant. */
export function text5000(i: number): string {
  let text = "";
  for (let k = i; [...text].length < 5000; k++) text += variant100(k);
  return [...text].slice(0, 5000).join("");
}
