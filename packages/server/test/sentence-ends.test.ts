import { splitText } from "@fangyan/client";
import { readText } from "@fangyan/frontend";
import { describe, expect, it } from "vitest";
import { sentencesOf } from "../src/tts/parts.js";

// Every mark any of the three treats as punctuation, and a few it does not.
const MARKS = [..."。｡！!？?；;…⋯.\n，,、：:”’」』）)》〉】—(（【〔〕﹐~-/", ". ", ".\u3000"];

/** Where each of the three sees a sentence end after "甲乙" in "甲乙{mark}丙丁，戊己庚辛". */
function views(mark: string) {
  const text = `甲乙${mark}丙丁，戊己庚辛`;
  const head = `甲乙${mark}`;
  // A piece must be cut before the comma: the client cuts after the mark only if it ends a sentence.
  const limit = [...`${head}丙丁，`].length;
  const normalized = readText(`甲乙${mark}丙丁`, { dialect: "cmn" }).normalized;
  // The server keeps the white space after a sentence with it, the client leaves it to the next piece.
  const cutAfterMark = (first: string | undefined) => first?.trimEnd() === head.trimEnd();
  return {
    server: cutAfterMark(sentencesOf(text)[0]),
    client: cutAfterMark(splitText(text, limit)[0]),
    frontend: /^甲乙(。|？|！|；|……)丙丁$/.test(normalized),
  };
}

describe("sentence ends, as the server, the client and the front-end see them", () => {
  it.each(MARKS)("agree on %j", (mark) => {
    const { server, client, frontend } = views(mark);
    // The server's parallel parts and the client's requests are cut at the same places...
    expect(client).toBe(server);
    // ...and only where the front-end gives a sentence's pause, so a cut falls in silence.
    if (server) expect(frontend).toBe(true);
    // Where the front-end pauses for a sentence, the others cut too; except after a full stop
    // with no space, which the front-end reads as one (3.14 was read as a number before) and
    // the others must not cut at, as it may be a decimal point.
    if (mark !== ".") expect(server).toBe(frontend);
  });

  it("the list above covers every kind of sentence end", () => {
    expect(MARKS.filter((mark) => views(mark).server)).toEqual([..."。｡！!？?；;…⋯\n", ". ", ".\u3000"]);
  });
});
