import { describe, expect, it } from "vitest";
import { evenParts, PARALLEL_MIN_CHARS, sentencesOf, streamedParts } from "../../src/tts/parts.js";

const TEXT =
  "今天天气很好，我们一起去公园散步吧。公园里有很多人，有的在跑步，有的在打太极拳，还有小朋友在放风筝。春天来了，花都开了，红的、黄的、白的，真漂亮！我们走累了就在湖边坐一会儿。";
const chars = (text: string) => [...text].length;

describe("cutting a text for parallel synthesis", () => {
  it("cuts at sentence ends, closing quotes kept with their sentence, and loses nothing", () => {
    expect(sentencesOf("“你好！”他说。价格是3.5元？好")).toEqual(["“你好！”", "他说。", "价格是3.5元？", "好"]);
    expect(sentencesOf(TEXT).join("")).toBe(TEXT);
  });

  it("gives one part per thread, of about equal size, in text order", () => {
    const text = TEXT.repeat(3);
    const parts = evenParts(text, 2);
    expect(parts).toHaveLength(2);
    expect(parts.join("")).toBe(text);
    const [a = "", b = ""] = parts;
    expect(Math.abs(chars(a) - chars(b))).toBeLessThan(40);
  });

  it("leaves a short text, or a single thread, in one part", () => {
    expect(chars(TEXT)).toBeLessThan(PARALLEL_MIN_CHARS);
    expect(evenParts(TEXT, 2)).toEqual([TEXT]);
    expect(evenParts(TEXT.repeat(3), 1)).toEqual([TEXT.repeat(3)]);
  });

  it("starts a streamed text with a short first part, then parts balanced for the threads", () => {
    const long = TEXT.repeat(20);
    const parts = streamedParts(long, 2);
    expect(parts.join("")).toBe(long);
    expect(chars(parts[0] ?? "")).toBeLessThanOrEqual(20);
    // One double part for the first part's thread, single parts for the other.
    expect(parts.slice(1).map(chars)).toHaveLength(3);
    const [, one = "", two = "", three = ""] = parts;
    expect(chars(two) / chars(one)).toBeCloseTo(2, 0);
    expect(chars(three) / chars(one)).toBeCloseTo(1, 0);
  });
});
