import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { WasmModule } from "espeak-ng";
import { beforeAll, describe, expect, it } from "vitest";
import { EspeakInstance } from "../../src/speech/espeak/instance.js";
import { inputPath, outputPath } from "../../src/speech/espeak/task.js";

// One espeak-ng instance serves every call of a worker; its memory is put back
// before each call, so a call must give the same bytes whatever ran before it.

const compile = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } }).WebAssembly.compile;
const args = (voice: string) => ["-v", voice, "-w", outputPath, "-f", inputPath];

let compiled: WasmModule;
beforeAll(async () => {
  const script = createRequire(import.meta.url).resolve("espeak-ng");
  const bytes = await readFile(script.replace(/\.js$/, ".wasm"));
  compiled = await compile(bytes);
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
