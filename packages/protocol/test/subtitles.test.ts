import { describe, expect, it } from "vitest";
import { subtitleClock, toSrt, toVtt } from "../src/index.js";

const cues = [
  { text: "你好，世界。\n", start_ms: 2, end_ms: 1184.4 },
  { text: "a < b && c --> d", start_ms: 3_723_004, end_ms: 3_725_999.6 },
];

describe("subtitle files", () => {
  it("write clocks as hours, minutes, seconds and milliseconds, rounded", () => {
    expect(subtitleClock(0, ".")).toBe("00:00:00.000");
    expect(subtitleClock(3_723_004, ",")).toBe("01:02:03,004");
    expect(subtitleClock(59_999.6, ".")).toBe("00:01:00.000");
  });

  it("WebVTT: a header, numbered cues, one line each, markup characters escaped", () => {
    expect(toVtt(cues)).toBe(
      "WEBVTT\n\n1\n00:00:00.002 --> 00:00:01.184\n你好，世界。\n\n2\n01:02:03.004 --> 01:02:06.000\na &lt; b &amp;&amp; c --&gt; d\n",
    );
  });

  it("SRT: numbered cues with a comma before the milliseconds, text as spoken", () => {
    expect(toSrt(cues)).toBe("1\n00:00:00,002 --> 00:00:01,184\n你好，世界。\n\n2\n01:02:03,004 --> 01:02:06,000\na < b && c --> d\n");
  });
});
