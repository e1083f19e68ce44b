import { describe, expect, it } from "vitest";
import { CLOSING_MARKS, endsSentence, SENTENCE_END_MARKS, sentencesOf } from "../src/index.js";

describe("sentence ends", () => {
  it("are the Chinese and ASCII end marks, a line break, and a full stop only before white space", () => {
    for (const mark of ["。", "｡", "！", "!", "？", "?", "；", ";", "…", "⋯", "\n"]) expect(endsSentence(mark, "a")).toBe(true);
    expect(endsSentence(".", " ")).toBe(true);
    expect(endsSentence(".", "\u3000")).toBe(true);
    expect(endsSentence(".", "1")).toBe(false);
    expect(endsSentence(".", "")).toBe(false);
    for (const other of ["，", ",", "、", "：", ":", "”", "」", "a", "好", " ", "—"]) expect(endsSentence(other, "a")).toBe(false);
    expect(Object.keys(SENTENCE_END_MARKS)).not.toContain(".");
  });

  it("cut a text after each sentence, closing quotes and spaces kept with it, and lose nothing", () => {
    expect(sentencesOf("“你好！”他说。价格是3.5元？好")).toEqual(["“你好！”", "他说。", "价格是3.5元？", "好"]);
    expect(sentencesOf("Pi is 3.14. Really?! Yes")).toEqual(["Pi is 3.14. ", "Really?! ", "Yes"]);
    expect(sentencesOf("第一行\n第二行（完。）\n")).toEqual(["第一行\n", "第二行（完。）\n"]);
    expect(sentencesOf("𠮷野家。𠮷")).toEqual(["𠮷野家。", "𠮷"]);
    expect(sentencesOf("")).toEqual([]);
    expect(sentencesOf("没有句号")).toEqual(["没有句号"]);
  });

  it("keep every closing quote and bracket with the sentence it closes", () => {
    for (const closer of CLOSING_MARKS) expect(sentencesOf(`好。${closer}下`)).toEqual([`好。${closer}`, "下"]);
  });
});
