import { describe, expect, it } from "vitest";
import { fitForJoin, frameSamplesAt, pauseNear } from "../../src/speech/mp3/gapless.js";

/** espeak-ng's rate: MPEG-2 frames of 576 samples. */
const rate = 22_050;
const joinFrameSamples = frameSamplesAt(rate);

/** Sound (a constant level) and silence, in runs of the given lengths, starting with sound. */
function pcmOf(...runs: number[]): Int16Array {
  const pcm = new Int16Array(runs.reduce((a, b) => a + b, 0));
  let at = 0;
  runs.forEach((length, i) => {
    if (i % 2 === 0) pcm.fill(1000, at, at + length);
    at += length;
  });
  return pcm;
}

describe("fitting a part for a gapless join", () => {
  it("cuts trailing silence so the part fills whole frames, less the two the join takes", () => {
    const pcm = pcmOf(10_000, 5_000);
    const fitted = fitForJoin(pcm, rate);
    expect(fitted.length).toBe((Math.floor(15_000 / joinFrameSamples) - 2) * joinFrameSamples);
    expect(fitted.length).toBeGreaterThanOrEqual(10_000); // only silence went
  });

  it("adds silence instead when the pause is too short to cut", () => {
    const pcm = pcmOf(10_000, 100);
    const fitted = fitForJoin(pcm, rate);
    expect(fitted.length % joinFrameSamples).toBe(0);
    expect(fitted.length).toBeGreaterThanOrEqual(10_000);
    expect(fitted.subarray(0, pcm.length)).toEqual(pcm);
  });
});

describe("where to cut samples in two", () => {
  it("picks the pause nearest the middle, leaving enough of it to fit the first half", () => {
    const pcm = pcmOf(40_000, 4_000, 30_000, 4_000, 40_000);
    const cut = pauseNear(pcm, pcm.length / 2, rate);
    expect(cut).toBeDefined();
    const at = cut ?? 0;
    expect(at).toBeGreaterThan(40_000);
    expect(at).toBeLessThan(44_000);
    // The first half, fitted, keeps all its sound.
    expect(fitForJoin(pcm.subarray(0, at), rate).length).toBeGreaterThanOrEqual(40_000);
  });

  it("finds none when every pause is too short", () => {
    expect(pauseNear(pcmOf(40_000, 500, 40_000), 40_250, rate)).toBeUndefined();
  });
});

describe("fitting at 32 kHz and above (MPEG-1, 1 152 samples a frame)", () => {
  it("keeps whole frames less the one frame the encoder's delay and padding take", () => {
    const pcm = pcmOf(20_000, 5_000);
    const fitted = fitForJoin(pcm, 44_100);
    expect(fitted.length).toBe((Math.floor(25_000 / 1152) - 1) * 1152);
    expect(fitted.length).toBeGreaterThanOrEqual(20_000);
  });
});
