import { describe, expect, it } from "vitest";
import { mp3RateFor, resample } from "../../src/speech/mp3/resample.js";

describe("audio at a rate MP3 does not carry", () => {
  it("is encoded at the nearest rate MP3 carries; a carried rate stays", () => {
    expect(mp3RateFor(22_000)).toBe(22_050);
    expect(mp3RateFor(25_000)).toBe(24_000);
    expect(mp3RateFor(96_000)).toBe(48_000);
    expect(mp3RateFor(6_000)).toBe(8_000);
    expect(mp3RateFor(44_100)).toBe(44_100);
  });

  it("keeps its length in time and its tone when resampled", () => {
    const from = 22_000;
    const to = 22_050;
    const tone = Int16Array.from({ length: from }, (_, i) => Math.round(10_000 * Math.sin((2 * Math.PI * 440 * i) / from)));
    const out = resample(tone, from, to);
    expect(out.length).toBe(to);
    // The same 440 Hz sine at the new rate, within the error of linear interpolation.
    for (const i of [100, 5_000, 20_000])
      expect(Math.abs((out[i] ?? 0) - 10_000 * Math.sin((2 * Math.PI * 440 * i) / to))).toBeLessThan(100);
    expect(resample(tone, from, from)).toBe(tone);
  });
});
