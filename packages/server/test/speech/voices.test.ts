import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isEspeakVoice } from "../../src/speech/espeak/arguments.js";
import { loadVoiceCatalog } from "../../src/speech/voices.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "fangyan-voices-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function catalogFile(voices: unknown): string {
  const path = join(dir, "voices.json");
  writeFileSync(path, typeof voices === "string" ? voices : JSON.stringify(voices));
  return path;
}

const voice = (id: string, dialect: "cmn" | "yue", extra: object = {}) => ({
  id,
  name: `${id} 的名字`,
  dialect_code: dialect,
  dialect_label: dialect === "cmn" ? "普通话" : "粤语",
  gender: id.includes("female") ? "female" : "male",
  engine: { espeakVoice: dialect },
  ...extra,
});

describe("the shipped voice catalog", () => {
  it("offers four voices for Mandarin and four for Cantonese, two of each gender", () => {
    const catalog = loadVoiceCatalog();
    const grouped = catalog.grouped();
    expect(Object.keys(grouped)).toEqual(["普通话", "粤语"]);
    for (const [label, code] of [
      ["普通话", "cmn"],
      ["粤语", "yue"],
    ] as const) {
      const voices = grouped[label] ?? [];
      // Four voices per dialect, two of each gender.
      expect(voices.map((v) => v.gender).sort()).toEqual(["female", "female", "male", "male"]);
      expect(voices.every((v) => v.dialect_code === code && /[\u4e00-\u9fff]/.test(v.name))).toBe(true);
    }
  });

  it("gives each voice its own espeak voice and variant", () => {
    const engines = loadVoiceCatalog()
      .list()
      .map((v) => (isEspeakVoice(v.engine) ? `${v.engine.espeakVoice}+${v.engine.variant ?? ""}` : v.id));
    expect(new Set(engines).size).toBe(engines.length);
  });
});

describe("loading a voice catalog", () => {
  it("finds voices by id", () => {
    const catalog = loadVoiceCatalog(catalogFile([voice("cmn-female-1", "cmn"), voice("yue-male-1", "yue")]));
    expect(catalog.get("yue-male-1")?.engine).toEqual({ espeakVoice: "yue" });
    expect(catalog.get("nobody")).toBeUndefined();
  });

  it("neither lists nor finds hidden voices", () => {
    const catalog = loadVoiceCatalog(catalogFile([voice("cmn-female-1", "cmn"), voice("cmn-male-1", "cmn", { hidden: true })]));
    expect(catalog.get("cmn-male-1")).toBeUndefined();
    expect(catalog.list().map((v) => v.id)).toEqual(["cmn-female-1"]);
    expect(catalog.grouped()).toEqual({
      普通话: [{ id: "cmn-female-1", name: "cmn-female-1 的名字", dialect_code: "cmn", gender: "female" }],
    });
  });

  it("groups voices by dialect label, in file order", () => {
    const catalog = loadVoiceCatalog(
      catalogFile([voice("yue-female-1", "yue"), voice("cmn-male-1", "cmn"), voice("yue-male-1", "yue"), voice("cmn-female-1", "cmn")]),
    );
    const grouped = catalog.grouped();
    expect(Object.keys(grouped)).toEqual(["粤语", "普通话"]);
    expect(grouped.粤语?.map((v) => v.id)).toEqual(["yue-female-1", "yue-male-1"]);
    expect(grouped.普通话?.map((v) => v.id)).toEqual(["cmn-male-1", "cmn-female-1"]);
    expect(Object.keys(grouped.普通话?.[0] ?? {}).sort()).toEqual(["dialect_code", "gender", "id", "name"]);
  });

  it("names the file and the field that is wrong", () => {
    const path = catalogFile([voice("cmn-female-1", "cmn"), voice("yue-male-1", "yue", { engine: { espeakVoice: "yue", pitch: 150 } })]);
    expect(() => loadVoiceCatalog(path)).toThrow(path);
    expect(() => loadVoiceCatalog(path)).toThrow("[1].engine.pitch");
  });

  it.each([
    ["an upper-case id", [voice("CMN-1", "cmn")], "[0].id"],
    ["a duplicate id", [voice("cmn-1", "cmn"), voice("cmn-1", "cmn")], "[1].id"],
    ["an unknown gender", [voice("cmn-1", "cmn", { gender: "robot" })], "[0].gender"],
    ["a misspelt field", [voice("cmn-1", "cmn", { hiden: true })], "hiden"],
    ["one dialect under two labels", [voice("cmn-1", "cmn"), voice("cmn-2", "cmn", { dialect_label: "国语" })], "[1].dialect_label"],
    ["only hidden voices", [voice("cmn-1", "cmn", { hidden: true })], "no voice is visible"],
    ["an object instead of a list", { voices: [] }, "(top level)"],
  ])("rejects %s", (_, content, field) => {
    expect(() => loadVoiceCatalog(catalogFile(content))).toThrow(field);
  });

  it("says which file is not JSON or is missing", () => {
    const broken = catalogFile("[{");
    expect(() => loadVoiceCatalog(broken)).toThrow(`Voice catalog ${broken} could not be read`);
    const missing = join(dir, "absent.json");
    expect(() => loadVoiceCatalog(missing)).toThrow(missing);
  });
});

describe("each voice names its engine", () => {
  const http = { kind: "http", baseUrl: "http://10.0.0.5:8880/v1/", model: "kokoro", voice: "zf_xiaoxiao", responseFormat: "wav" };

  it("an entry without kind is an espeak-ng voice, as before other engines", () => {
    const catalog = loadVoiceCatalog(catalogFile([voice("cmn-female-1", "cmn")]));
    expect(catalog.get("cmn-female-1")?.engine).toEqual({ espeakVoice: "cmn" });
  });

  it("takes the contract's HTTP entry, with defaults for what it leaves out", () => {
    const catalog = loadVoiceCatalog(catalogFile([voice("remote", "cmn", { engine: http })]));
    expect(catalog.get("remote")?.engine).toEqual({
      ...http,
      baseUrl: "http://10.0.0.5:8880/v1",
      sampleRate: 24_000,
      timeoutMs: 60_000,
      maxConcurrent: 4,
    });
    const pcm = { ...http, baseUrl: "http://10.0.0.5:8880/v1", responseFormat: "pcm", sampleRate: 16_000, apiKeyEnv: "KOKORO_KEY" };
    expect(loadVoiceCatalog(catalogFile([voice("remote", "cmn", { engine: pcm })])).get("remote")?.engine).toMatchObject(pcm);
  });

  it("takes a sherpa-onnx entry, speaker 0 unless given", () => {
    const catalog = loadVoiceCatalog(catalogFile([voice("neural", "yue", { engine: { kind: "sherpa-onnx", model: "vits-cantonese" } })]));
    expect(catalog.get("neural")?.engine).toEqual({ kind: "sherpa-onnx", model: "vits-cantonese", speaker: 0 });
  });

  it("refuses an unknown kind with a message that says which kinds exist", () => {
    expect(() => loadVoiceCatalog(catalogFile([voice("x", "cmn", { engine: { kind: "azure", voice: "x" } })]))).toThrow(
      /\[0\]\.engine(\.kind)?: kind must be one of espeak-ng, sherpa-onnx, http \(no kind means espeak-ng\)/,
    );
  });

  it("refuses an HTTP entry whose URL is not http(s), naming the field", () => {
    expect(() => loadVoiceCatalog(catalogFile([voice("x", "cmn", { engine: { ...http, baseUrl: "ftp://host/v1" } })]))).toThrow(
      /\[0\]\.engine\.baseUrl/,
    );
  });

  it("groups a dialect espeak-ng does not have under its own label, gender optional", () => {
    const sichuan = { id: "sc-1", name: "四川话 · 阿妹", dialect_code: "cmn-sichuan", dialect_label: "四川话", engine: http };
    const catalog = loadVoiceCatalog(catalogFile([voice("cmn-female-1", "cmn"), sichuan]));
    expect(catalog.grouped()["四川话"]).toEqual([{ id: "sc-1", name: "四川话 · 阿妹", dialect_code: "cmn-sichuan" }]);
  });
});
