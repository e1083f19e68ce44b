import { describe, expect, it } from "vitest";
import type { SynthesisRequest } from "../../src/speech/engine.js";
import { espeakVoiceName, prepareEspeakTask, speakableText } from "../../src/speech/espeak/arguments.js";

function request(overrides: Partial<SynthesisRequest> = {}): SynthesisRequest {
  return { text: "你好", voice: { espeakVoice: "cmn" }, speed: 1, pitch: 1, volume: 1, ...overrides };
}

function option(args: readonly string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  return at === -1 ? undefined : args[at + 1];
}

function argsOf(overrides: Partial<SynthesisRequest>): string[] {
  const prepared = prepareEspeakTask(request(overrides));
  if (!prepared.ok) throw new Error(prepared.reason);
  return prepared.task.arguments;
}

describe("espeak-ng arguments", () => {
  it("speed, pitch and volume 1 mean espeak's defaults", () => {
    const args = argsOf({});
    expect([option(args, "-s"), option(args, "-p"), option(args, "-a")]).toEqual(["175", "50", "100"]);
  });

  it("scale the voice's own rate and pitch", () => {
    const args = argsOf({ voice: { espeakVoice: "yue", variant: "f3", rate: 160, pitch: 60 }, speed: 1.5, pitch: 0.5, volume: 0.5 });
    expect(option(args, "-v")).toBe("yue+fy-f3");
    expect([option(args, "-s"), option(args, "-p"), option(args, "-a")]).toEqual(["240", "30", "50"]);
  });

  it("are clamped to what espeak honours", () => {
    const high = argsOf({ speed: 9, pitch: 9, volume: 9 });
    expect([option(high, "-s"), option(high, "-p"), option(high, "-a")]).toEqual(["450", "99", "200"]);
    const low = argsOf({ speed: 0.01, pitch: 0, volume: 0 });
    expect([option(low, "-s"), option(low, "-p"), option(low, "-a")]).toEqual(["80", "0", "0"]);
    const nonsense = argsOf({ speed: Number.NaN, pitch: Number.POSITIVE_INFINITY, volume: Number.NaN });
    expect([option(nonsense, "-s"), option(nonsense, "-p"), option(nonsense, "-a")]).toEqual(["175", "50", "100"]);
  });

  it("never carry the text, which goes through a file whatever it starts with", () => {
    const prepared = prepareEspeakTask(request({ text: "-w /etc/passwd --stdin" }));
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    expect(prepared.task.text).toBe("-w /etc/passwd --stdin");
    expect(prepared.task.arguments.join(" ")).not.toContain("passwd");
    expect(prepared.task.arguments.slice(-2)).toEqual(["-f", "/input.txt"]);
  });
});

describe("voice names", () => {
  it("join voice and our variant of espeak's the way espeak expects", () => {
    expect(espeakVoiceName({ espeakVoice: "cmn" })).toBe("cmn");
    expect(espeakVoiceName({ espeakVoice: "cmn", variant: "m3" })).toBe("cmn+fy-m3");
    expect(espeakVoiceName({ espeakVoice: "en-us", variant: "Annie" })).toBe("en-us+fy-Annie");
    expect(espeakVoiceName({ espeakVoice: "yue", variant: "f3", pitchHz: [110, 390] })).toBe("yue+fy-f3-110-390");
    expect(espeakVoiceName({ espeakVoice: "yue", pitchHz: [60, 240] })).toBe("yue+fy-default-60-240");
  });

  it("hand the worker the variant to write", () => {
    const prepared = prepareEspeakTask(request({ voice: { espeakVoice: "yue", variant: "f3", pitchHz: [110, 390] } }));
    expect(prepared.ok && prepared.task.variant).toEqual({ name: "fy-f3-110-390", from: "f3", pitchHz: [110, 390] });
    const plain = prepareEspeakTask(request());
    expect(plain.ok && plain.task.variant).toBeUndefined();
  });

  it.each([["-w"], ["cmn -a"], [""], ["../cmn"], ["cmn+f2"]])("refuse %j as a voice, so it cannot become an option", (name) => {
    expect(espeakVoiceName({ espeakVoice: name })).toBeUndefined();
    expect(prepareEspeakTask(request({ voice: { espeakVoice: name } }))).toEqual({ ok: false, reason: "voice_unavailable" });
  });

  it("refuse a variant that is not a plain name, and a pitch that is not whole hertz", () => {
    expect(espeakVoiceName({ espeakVoice: "cmn", variant: "f2 -a" })).toBeUndefined();
    expect(espeakVoiceName({ espeakVoice: "cmn", variant: "f2", pitchHz: [110.5, 300] })).toBeUndefined();
  });
});

describe("text clean-up", () => {
  it.each([["。。。！！"], ["😀🎉"], ["   \n\t"], ["……——"], [""]])("%j has nothing to speak", (text) => {
    expect(speakableText(text)).toBeUndefined();
    expect(prepareEspeakTask(request({ text }))).toEqual({ ok: false, reason: "nothing_to_speak" });
  });

  it("keeps letters and digits of any script", () => {
    expect(speakableText("１２３")).toBe("１２３");
    expect(speakableText("你好😀")).toBe("你好😀");
  });

  it("turns a NUL and other control characters into spaces, so espeak does not stop at them", () => {
    expect(speakableText("前半句\u0000后半句\u0007。")).toBe("前半句 后半句 。");
    expect(speakableText("第一行\n第二行\r\n\t第三行")).toBe("第一行\n第二行\r\n\t第三行");
  });

  it("keeps [[ from switching espeak to phoneme input", () => {
    expect(speakableText("[[h@l'oU]] 你好")).toBe("[ [h@l'oU]] 你好");
    expect(speakableText("[[[ 你好")).toBe("[ [ [ 你好");
  });
});
