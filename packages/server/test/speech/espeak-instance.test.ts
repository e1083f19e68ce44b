import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { WasmModule } from "espeak-ng";
import { beforeAll, describe, expect, it } from "vitest";
import { espeakLanguagesOf, espeakVoiceName, isEspeakVoice } from "../../src/speech/espeak/arguments.js";
import { compileEspeak, EspeakInstance } from "../../src/speech/espeak/instance.js";
import { withoutFiles } from "../../src/speech/espeak/slim.js";
import { inputPath, outputPath } from "../../src/speech/espeak/task.js";
import { variantOf } from "../../src/speech/espeak/variants.js";
import { loadVoiceCatalog } from "../../src/speech/voices.js";

// One espeak-ng instance serves every call of a worker; its memory is put back
// before each call, so a call must give the same bytes whatever ran before it.

const args = (voice: string) => ["-v", voice, "-w", outputPath, "-f", inputPath];

let compiled: WasmModule;
beforeAll(() => {
  compiled = compileEspeak();
});

describe("a reused espeak-ng instance", () => {
  it("gives the bytes of a fresh instance, after other calls, failures and options", async () => {
    const fresh = (await EspeakInstance.create(compiled)).run(args("cmn"), "你好，世界。");
    expect(fresh.status).toBe(0);
    expect(fresh.wav?.length).toBeGreaterThan(44);

    const reused = await EspeakInstance.create(compiled);
    const long = reused.run(["-s", "300", "-p", "80", ...args("yue+f2")], "今天天气很好，我们一起去公园散步吧。".repeat(40));
    expect(long.status).toBe(0);
    // exit(1) from inside main(), with the output file already open.
    const missing = reused.run(args("xx-not-a-voice"), "hello");
    expect(missing.status).toBe(1);
    expect(missing.errors).toContain("voice does not exist");
    expect(missing.wav).toBeUndefined();

    const again = reused.run(args("cmn"), "你好，世界。");
    expect(again.status).toBe(0);
    expect(reused.usable).toBe(true);
    expect(Buffer.from(again.wav ?? []).equals(Buffer.from(fresh.wav ?? []))).toBe(true);
    // A later option parse starts from the first argument again (getopt's position is reset).
    const slow = reused.run(["-s", "80", ...args("cmn")], "你好，世界。");
    expect(slow.wav?.length).toBeGreaterThan((fresh.wav?.length ?? 0) * 1.5);
  }, 60_000);

  it("speaks the same bytes for the same text at any time, breathy voices too", async () => {
    // cmn+f2 adds random breath noise, which espeak-ng seeds from the time of day: before the
    // clock was fixed, this text came out different from one second to the next.
    const instance = await EspeakInstance.create(compiled);
    const first = instance.run(args("cmn+f2"), "[[ni2 xau3]]");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const later = (await EspeakInstance.create(compiled)).run(args("cmn+f2"), "[[ni2 xau3]]");
    expect(first.status).toBe(0);
    expect(Buffer.from(later.wav ?? []).equals(Buffer.from(first.wav ?? []))).toBe(true);
  }, 30_000);

  it("leaves no file and no open descriptor behind", async () => {
    const instance = await EspeakInstance.create(compiled);
    for (let i = 0; i < 50; i++) instance.run(i % 5 === 4 ? args("nope") : args("cmn"), `第${i}句。`);
    expect(instance.openFiles()).toEqual([]);
    const last = instance.run(args("cmn"), "好。");
    expect(last.status).toBe(0);
    expect(last.errors).toBe("");
    expect(instance.openFiles()).toEqual([]);
  }, 60_000);
});

describe("a variant of ours in an instance", () => {
  it("is written once and speaks in every later call, whatever ran between", async () => {
    const instance = await EspeakInstance.create(compiled);
    const stock = instance.run(args("yue+f3"), "[[s'i1]]");
    const variant = { name: "fy-f3-110-390", from: "f3", pitchHz: [110, 390] } as const;
    expect(instance.addVariant(variant)).toBe(true);
    const first = instance.run(args("yue+fy-f3-110-390"), "[[s'i1]]");
    instance.run(args("cmn+f2"), "你好，世界。");
    const again = instance.run(args("yue+fy-f3-110-390"), "[[s'i1]]");
    expect(first.status).toBe(0);
    expect(Buffer.from(again.wav ?? []).equals(Buffer.from(first.wav ?? []))).toBe(true);
    // Its own pitch, and no echo after the speech: not espeak-ng's f3.
    expect(Buffer.from(first.wav ?? []).equals(Buffer.from(stock.wav ?? []))).toBe(false);
  });

  it("is refused when made from a variant espeak-ng does not have", async () => {
    const instance = await EspeakInstance.create(compiled);
    expect(instance.addVariant({ name: "fy-f9", from: "f9" })).toBe(false);
  });
});

describe("espeak-ng without the dictionaries no voice uses", () => {
  const voices = loadVoiceCatalog().list();
  const languages = espeakLanguagesOf(voices.map((voice) => voice.engine));

  it("speaks every voice of the catalog to the same bytes as the whole module", async () => {
    expect(languages.sort()).toEqual(["cmn", "yue"]);
    const whole = await EspeakInstance.create(compiled);
    const slim = await EspeakInstance.create(compileEspeak(languages));
    for (const voice of voices) {
      if (!isEspeakVoice(voice.engine)) throw new Error(`${voice.id} is not an espeak-ng voice`);
      const name = espeakVoiceName(voice.engine);
      if (name === undefined) throw new Error(`${voice.id} has no espeak-ng name`);
      // The variant the worker writes before a call.
      const variant = variantOf(voice.engine);
      if (variant) expect(whole.addVariant(variant) && slim.addVariant(variant)).toBe(true);
      // Han characters, phoneme input as the front-end writes it, and Latin letters (English's dictionary).
      for (const text of ["你好，世界。", "[[ni2 xau3]]", "OK, DNA 123"]) {
        const expected = whole.run(args(name), text);
        const actual = slim.run(args(name), text);
        expect(expected.status).toBe(0);
        expect(actual.status).toBe(0);
        expect(Buffer.from(actual.wav ?? []).equals(Buffer.from(expected.wav ?? [])), `${voice.id}: ${text}`).toBe(true);
      }
    }
  }, 120_000);

  it("leaves the other dictionaries' bytes out of the module, and keeps the rest", () => {
    const bytes = readFileSync(
      createRequire(import.meta.url)
        .resolve("espeak-ng")
        .replace(/\.js$/, ".wasm"),
    );
    const slim = withoutFiles(bytes, (path) => !path.endsWith("_dict") || /\/(cmn|yue|en)_dict$/.test(path));
    expect(bytes.length).toBeGreaterThan(18_000_000);
    // cmn 1.5 MB, yue 0.5 MB, en 0.2 MB and 1 MB of phoneme data and code remain.
    expect(slim.length).toBeLessThan(4_000_000);
    expect(slim.length).toBeGreaterThan(3_000_000);
    // Nothing to leave out, or a module it does not understand: the same bytes back.
    expect(withoutFiles(bytes, () => true)).toBe(bytes);
    const tiny = Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    expect(withoutFiles(tiny, () => false)).toBe(tiny);
  });
});
