import { countChars } from "@fangyan/protocol";
import { describe, expect, it } from "vitest";
import { splitText } from "../src/index.js";

const SENTENCE = "今天天气很好，我们去公园散步吧。"; // 16 characters

describe("splitting a long text into requests", () => {
  it("a text that fits is one piece, unchanged", () => {
    expect(splitText("你好，世界")).toEqual(["你好，世界"]);
    const full = "好".repeat(5000);
    expect(splitText(full)).toEqual([full]);
  });

  it("12,000 characters of sentences become pieces of at most 5000 that end at a sentence end and join back to the text", () => {
    const text = SENTENCE.repeat(750);
    const pieces = splitText(text);
    expect(pieces.map(countChars)).toEqual([4992, 4992, 2016]);
    for (const piece of pieces) expect(piece.endsWith("。")).toBe(true);
    expect(pieces.join("")).toBe(text);
  });

  it.each([
    ["！", "你好！"],
    ["？", "你好吗？"],
    ["!", "Hello!"],
    ["?", "Why?"],
    ["；", "第一；"],
    [";", "one;"],
    ["a newline", "第一行\n"],
    ["an ellipsis", "然后……"],
  ])("cuts after %s", (_name, unit) => {
    const text = `${"字".repeat(40)}${unit}${"尾".repeat(30)}`;
    const [first, second] = splitText(text, 50);
    expect(first).toBe(`${"字".repeat(40)}${unit}`);
    expect(second).toBe("尾".repeat(30));
  });

  it("keeps closing quotes and brackets with their sentence", () => {
    const text = `他说：“今天很好。”${"然后".repeat(30)}`;
    expect(splitText(text, 20)[0]).toBe("他说：“今天很好。”");
  });

  it("an English full stop ends a sentence only before a space, so 3.14 stays whole", () => {
    const text = `Pi is 3.14 and more words follow here. ${"x".repeat(30)}`;
    expect(splitText(text, 45)[0]).toBe("Pi is 3.14 and more words follow here.");
  });

  it("falls back to the last comma when a sentence is longer than a request", () => {
    const text = `${"一".repeat(20)}，${"二".repeat(20)}，${"三".repeat(20)}。`;
    expect(splitText(text, 50)).toEqual([`${"一".repeat(20)}，${"二".repeat(20)}，`, `${"三".repeat(20)}。`]);
  });

  it("then to a space, then cuts hard at the limit", () => {
    expect(splitText(`${"a".repeat(30)} ${"b".repeat(30)}`, 40)).toEqual([`${"a".repeat(30)} `, "b".repeat(30)]);
    expect(splitText("字".repeat(120), 50)).toEqual(["字".repeat(50), "字".repeat(50), "字".repeat(20)]);
  });

  it("never cuts a character outside the Basic Multilingual Plane in half", () => {
    const text = "𠮷".repeat(12_000);
    const pieces = splitText(text);
    expect(pieces.map(countChars)).toEqual([5000, 5000, 2000]);
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const piece of pieces) expect(piece).not.toMatch(loneSurrogate);
    expect(pieces.join("")).toBe(text);
  });

  it("does not make a piece of punctuation alone, which would be billed but unspeakable", () => {
    const text = `。${"字".repeat(80)}`;
    const pieces = splitText(text, 50);
    expect(pieces[0]).toBe(`。${"字".repeat(49)}`);
  });

  it("leaves out pieces of only white space", () => {
    const text = `${"字".repeat(49)}。\n\n\n`;
    expect(splitText(text, 50)).toEqual([`${"字".repeat(49)}。`]);
  });

  it("every piece is within the limit, whatever the text", () => {
    const alphabet = ["字", "𠮷", "。", "，", " ", "\n", "a", "”", "！"];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 50; round++) {
      const text = Array.from({ length: 300 + Math.floor(random() * 400) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(
        "",
      );
      const pieces = splitText(text, 37);
      for (const piece of pieces) {
        expect(countChars(piece)).toBeLessThanOrEqual(37);
        expect(piece.trim()).not.toBe("");
      }
      expect(pieces.join("").replace(/\s/g, "")).toBe(text.replace(/\s/g, ""));
    }
  });
});
