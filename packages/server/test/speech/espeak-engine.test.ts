import { describeMp3 } from "@fangyan/mp3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SpeechEngine, SynthesisError, type SynthesisRequest } from "../../src/speech/engine.js";
import { createEspeakEngine } from "../../src/speech/espeak/engine.js";
import { loadVoiceCatalog } from "../../src/speech/voices.js";

// Runs the real espeak-ng WASM in real worker threads (the compiled worker in
// dist/, so `tsc -b` must have run, as `npm test` does).

const SENTENCE_20 = "今天天气很好，我们一起去公园散步吧。"; // 18 Han characters + 2 punctuation marks
const SENTENCE_100 =
  "今天天气很好，我们一起去公园散步吧。公园里有很多人，有的在跑步，有的在打太极拳，还有小朋友在放风筝。春天来了，花都开了，红的、黄的、白的，真漂亮！我们走累了就在湖边坐一会儿。";

let engine: SpeechEngine;
beforeAll(() => {
  engine = createEspeakEngine({ threads: 2 });
});
afterAll(async () => {
  await engine.close();
});

function request(text: string, overrides: Partial<SynthesisRequest> = {}): SynthesisRequest {
  return { text, voice: { espeakVoice: "cmn" }, speed: 1, pitch: 1, volume: 1, ...overrides };
}

async function failure(promise: Promise<unknown>): Promise<SynthesisError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SynthesisError);
  if (!(error instanceof SynthesisError)) throw new Error("unreachable");
  return error;
}

describe("the espeak-ng engine", () => {
  it("names itself and its version", () => {
    expect(engine.name).toBe("espeak-ng");
    expect(engine.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  const voices = loadVoiceCatalog().list();
  it.each(voices.map((v) => [v.id, v] as const))("voice %s speaks a sentence as a well-formed MP3", async (_, voice) => {
    const result = await engine.synthesize(request(SENTENCE_20, { voice: voice.engine }));
    const mp3 = describeMp3(result.mp3);

    expect(result.sampleRate).toBe(22050);
    expect(mp3).toMatchObject({ sampleRate: 22050, channels: 1, hasXingHeader: true, id3Bytes: 0 });
    expect(mp3.frames).toBeGreaterThan(0);
    expect(mp3.xingFrames).toBe(mp3.frames);
    expect(mp3.xingBytes).toBe(result.mp3.length);
    // Independent of the Xing tag: the frames found end exactly where the file does.
    expect(mp3.frameBytes).toBe(result.mp3.length);

    // 20 characters at 2-8 characters a second.
    expect(result.durationMs).toBeGreaterThan(2_500);
    expect(result.durationMs).toBeLessThan(10_000);
    // The reported duration is the MP3's, less the encoder's delay and padding.
    const samples = mp3.frames * mp3.samplesPerFrame - (mp3.encoderDelay ?? 0) - (mp3.encoderPadding ?? 0);
    expect(result.durationMs).toBe(Math.round((samples * 1000) / 22050));
  });

  it("speaks Mandarin and Cantonese differently", async () => {
    const mandarin = await engine.synthesize(request(SENTENCE_20, { voice: { espeakVoice: "cmn" } }));
    const cantonese = await engine.synthesize(request(SENTENCE_20, { voice: { espeakVoice: "yue" } }));
    expect(mandarin.mp3).not.toEqual(cantonese.mp3);
    expect(mandarin.durationMs).not.toBe(cantonese.durationMs);
  });

  it("speaks faster at speed 2 than at speed 0.5", async () => {
    const [fast, slow] = await Promise.all([
      engine.synthesize(request(SENTENCE_20, { speed: 2 })),
      engine.synthesize(request(SENTENCE_20, { speed: 0.5 })),
    ]);
    expect(fast.durationMs * 2).toBeLessThan(slow.durationMs);
  });

  it("speaks text that starts with a dash instead of reading it as an option", async () => {
    for (const text of ["-h", "--version", "-w /tmp/x 你好"]) {
      const result = await engine.synthesize(request(text));
      expect(result.durationMs).toBeGreaterThan(300);
    }
  });

  it("reads past a NUL in the text", async () => {
    const [withNul, withSpace] = await Promise.all([
      engine.synthesize(request("前半句\u0000后半句")),
      engine.synthesize(request("前半句 后半句")),
    ]);
    expect(withNul.durationMs).toBe(withSpace.durationMs);
  });

  it("reads every line of multi-line text", async () => {
    const [lines, oneLine] = await Promise.all([
      engine.synthesize(request("第一行\n第二行\r\n第三行")),
      engine.synthesize(request("第一行第二行第三行")),
    ]);
    expect(lines.durationMs).toBeGreaterThanOrEqual(oneLine.durationMs * 0.9);
  });

  it("refuses text with nothing to speak", async () => {
    for (const text of ["。。。！！", "😀😀", " "]) {
      const error = await failure(engine.synthesize(request(text)));
      expect(error.reason).toBe("nothing_to_speak");
      expect(error.message).toBe("The text contains nothing to speak");
    }
  });

  it("rejects a voice espeak does not have with a SynthesisError, not a stack", async () => {
    const error = await failure(engine.synthesize(request("你好", { voice: { espeakVoice: "xx-nope" } })));
    expect(error.reason).toBe("voice_unavailable");
    expect(error.message).toBe("The voice is not available");
    expect(error.message).not.toMatch(/espeak|\n|at /);
  });

  it("rejects a variant espeak does not have, which espeak itself would silently leave out", async () => {
    const error = await failure(engine.synthesize(request("你好", { voice: { espeakVoice: "cmn", variant: "f9" } })));
    expect(error.reason).toBe("voice_unavailable");
  });

  it("serves 8 requests at once on 2 threads", async () => {
    const texts = Array.from({ length: 8 }, (_, i) => `第${i + 1}个请求：${SENTENCE_20}`);
    const results = await Promise.all(
      texts.map((text, i) => engine.synthesize(request(text, { voice: { espeakVoice: i % 2 ? "yue" : "cmn" } }))),
    );
    for (const result of results) {
      const mp3 = describeMp3(result.mp3);
      expect(mp3.frames).toBeGreaterThan(0);
      expect(mp3.xingFrames).toBe(mp3.frames);
    }
  });

  it("speaks 5 000 characters, the longest text the API takes", { timeout: 120_000 }, async () => {
    const text = SENTENCE_100.repeat(50).slice(0, 5000);
    const result = await engine.synthesize(request(text));
    const mp3 = describeMp3(result.mp3);
    expect(result.durationMs).toBeGreaterThan(10 * 60_000); // about 21 minutes
    expect(mp3.xingFrames).toBe(mp3.frames);
    expect(mp3.frameBytes).toBe(result.mp3.length);
  });
});

describe("engine limits", () => {
  it("a full queue fails fast as busy", async () => {
    const small = createEspeakEngine({ threads: 1, maxQueue: 1 });
    try {
      await small.synthesize(request("你好")); // the worker is up and idle
      // All four arrive at once: one runs, one queues, and the two past the queue are refused at once.
      const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => small.synthesize(request(SENTENCE_20))));
      expect(
        outcomes.map((o) => (o.status === "fulfilled" ? "spoken" : o.reason instanceof SynthesisError ? o.reason.reason : "other")),
      ).toEqual(["spoken", "spoken", "busy", "busy"]);
    } finally {
      await small.close();
    }
  });

  it("a closed engine refuses work with a SynthesisError", async () => {
    const closing = createEspeakEngine({ threads: 1 });
    await closing.close();
    const error = await failure(closing.synthesize(request("你好")));
    expect(error.reason).toBe("failed");
  });
});

describe("waiting for room in a full pool", () => {
  it("a request past the queue waits for a free slot and then succeeds", async () => {
    const small = createEspeakEngine({ threads: 1, maxQueue: 1, waitMs: 60_000 });
    try {
      await small.synthesize(request("你好"));
      const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => small.synthesize(request(SENTENCE_20))));
      expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "fulfilled"]);
    } finally {
      await small.close();
    }
  });

  it("a request that waits past the limit fails as busy with the documented message", async () => {
    const small = createEspeakEngine({ threads: 1, maxQueue: 1, waitMs: 1 });
    try {
      await small.synthesize(request("你好"));
      const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => small.synthesize(request(SENTENCE_100))));
      const busy = outcomes.flatMap((o) => (o.status === "rejected" && o.reason instanceof SynthesisError ? [o.reason] : []));
      expect(busy.length).toBeGreaterThan(0);
      expect(busy.every((error) => error.reason === "busy")).toBe(true);
      expect(busy[0]?.message).toBe("The speech engine is busy, try again shortly");
      expect(outcomes.filter((o) => o.status === "fulfilled").length).toBe(2);
    } finally {
      await small.close();
    }
  });
});
