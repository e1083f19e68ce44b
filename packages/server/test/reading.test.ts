import fs from "node:fs/promises";
import path from "node:path";
import { describeMp3 } from "@fangyan/mp3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../src/accounts/service.js";
import { DiskAudioStore } from "../src/audio/disk.js";
import { logUnread, readForVoice } from "../src/reading/reader.js";
import type { SpeechEngine, SynthesisRequest } from "../src/speech/engine.js";
import { singleEngine } from "../src/speech/engines.js";
import { createEspeakEngine } from "../src/speech/espeak/engine.js";
import { loadVoiceCatalog } from "../src/speech/voices.js";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { parseTtsRequest } from "../src/tts/request.js";
import { TtsService } from "../src/tts/service.js";
import { startTestServer, type TestServer, tempDir } from "./helpers/harness.js";
import { FANGYAN_BIN, fangyan, run } from "./helpers/processes.js";
import { data } from "./helpers/spec-client.js";

const LEXICON = "# dialect\tword\treading\ncmn\t方言\tfang1 yan2\ncmn\t银行\tyin2 xing2\nyue\t行長\thong4 zoeng2\n";

/** `fangyan read --json` for one text, as an operator runs it. */
async function readCommand(voice: string, text: string, env: Record<string, string> = {}) {
  const result = await fangyan(["read", "--voice", voice, "--json", text], env);
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout) as {
    voice_id: string;
    dialect_code: string;
    normalized: string;
    syllables: string[];
    engine_input: string;
    unread: string[];
  };
}

describe("fangyan read", () => {
  it("prints voice, dialect, normalised text, syllables and engine input as one JSON object", async () => {
    const reading = await readCommand("cmn-female-1", "你好，世界");
    expect(reading).toEqual({
      voice_id: "cmn-female-1",
      dialect_code: "cmn",
      normalized: expect.stringContaining("你好"),
      syllables: ["ni3", "hao3", "shi4", "jie4"],
      engine_input: expect.stringContaining("[["),
      unread: [],
    });
  });

  it("shows an English word inside Chinese as one en: entry and spells an acronym", async () => {
    const yue = await readCommand("yue-female-1", "我今日好busy，send個email俾你。");
    expect(yue.syllables).toEqual(["ngo5", "gam1", "jat6", "hou2", "en:busy", "en:send", "go3", "en:email", "bei2", "nei5"]);
    const cmn = await readCommand("cmn-female-1", "我用iPhone打电话给Tom，GDP。");
    expect(cmn.syllables).toEqual(expect.arrayContaining(["en:iphone", "en:tom", "ji4", "di4", "pi4"]));
    expect(cmn.engine_input).toContain("]] iPhone [[");
  });

  it("reads a rare character from the Unihan table and lists one that has no reading as unread", async () => {
    const rare = await readCommand("cmn-female-1", "赵孟𫖯");
    expect(rare.syllables).toEqual(["zhao4", "meng4", "fu3"]);
    const unread = await readCommand("cmn-female-1", "我在𠮷野家吃饭");
    expect(unread.unread).toEqual(["𠮷"]);
    expect(unread.syllables).toEqual(["wo3", "zai4", "ye3", "jia1", "chi1", "fan4"]);
  });

  it("reads Cantonese in Jyutping with tones 1-6, from Simplified or Traditional text", async () => {
    const traditional = await readCommand("yue-female-1", "銀行");
    const simplified = await readCommand("yue-male-1", "银行");
    expect(traditional.syllables).toEqual(["ngan4", "hong4"]);
    expect(simplified.syllables).toEqual(traditional.syllables);
    expect(traditional.dialect_code).toBe("yue");
  });

  it("reads one text per line from stdin and prints one JSON object per line", async () => {
    const input = "你好\n中国\n\n再见\n";
    const result = await run(
      "bash",
      ["-c", `printf '${input}' | "${process.execPath}" "${FANGYAN_BIN}" read --voice cmn-male-1 --json`],
      {},
    );
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { syllables: string[] });
    expect(lines.map((l) => l.syllables)).toEqual([["ni3", "hao3"], ["zhong1", "guo2"], [], ["zai4", "jian4"]]);
  });

  it("refuses an unknown voice with a one-line error", async () => {
    const result = await fangyan(["read", "--voice", "klingon-1", "--json", "你好"], {});
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/unknown voice "klingon-1"/);
  });

  it("applies the operator lexicon (FANGYAN_LEXICON_FILE) and the inline override", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "lexicon.tsv");
    await fs.writeFile(file, LEXICON);
    expect((await readCommand("cmn-female-1", "方言银行", { FANGYAN_LEXICON_FILE: file })).syllables).toEqual([
      "fang1",
      "yan2",
      "yin2",
      "xing2",
    ]);
    expect((await readCommand("cmn-female-1", "方言银行")).syllables).toEqual(["fang1", "yan2", "yin2", "hang2"]);
    expect((await readCommand("cmn-female-1", "重[chong2]庆")).syllables).toEqual(["chong2", "qing4"]);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("stops with the file and line of a broken lexicon", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "lexicon.tsv");
    await fs.writeFile(file, "cmn\t方言\tfang1\n");
    const result = await fangyan(["read", "--voice", "cmn-female-1", "你好"], { FANGYAN_LEXICON_FILE: file });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file}:1`);
    await fs.rm(dir, { recursive: true, force: true });
  });
});

describe("synthesis uses exactly what fangyan read shows", () => {
  const seen: SynthesisRequest[] = [];
  let engine: SpeechEngine;
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir();
    const real = createEspeakEngine({ threads: 1 });
    // The real engine, watched: every request it is given is kept.
    engine = {
      name: real.name,
      kind: real.kind,
      version: real.version,
      synthesize: (request) => {
        seen.push(request);
        return real.synthesize(request);
      },
      close: () => real.close(),
    };
  });
  afterAll(async () => {
    await engine.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it.each([
    ["cmn-female-1", "他还没还我那本书，长大以后要去银行工作。2026年11月22日14:30见！"],
    ["yue-female-1", "佢仲未還本書畀我，長大之後去銀行做嘢。2026年11月22日14:30見！"],
  ])("%s: the engine gets the read command's engine_input, and the audio plays", async (voiceId, text) => {
    const store = await openSqliteStore(path.join(dir, `${voiceId}.db`));
    const audio = new DiskAudioStore(path.join(dir, "audio"), "http://127.0.0.1/audio");
    await audio.init();
    const voices = loadVoiceCatalog();
    const log = { error: () => {}, warn: () => {}, info: () => {} } as never;
    const tts = new TtsService({ store, engines: singleEngine(engine), voices, audio, log });
    const accounts = new AccountService(store);
    const { account, key } = await accounts.createAccount({ name: "reader", rechargeYuan: "1" });
    const owner = { account: await accounts.getAccount(account.id), key };

    const result = await tts.speak(owner, parseTtsRequest({ text, voice_id: voiceId }));
    const given = seen.at(-1);
    const shown = await readCommand(voiceId, text);
    expect(given?.text).toBe(shown.engine_input);
    expect(given?.markup).toBe(true);
    const voice = voices.get(voiceId);
    if (!voice) throw new Error("voice missing");
    expect(readForVoice(text, voice).reading).toEqual(shown);
    // Billing counts the text as submitted.
    expect(result.billing.raw_chars).toBe([...text].length);
    const file = path.join(dir, "audio", `${path.basename(result.audio_url)}`);
    expect(describeMp3(new Uint8Array(await fs.readFile(file))).durationMs).toBeGreaterThan(2000);
    await store.close();
  });
});

describe("characters with no reading", () => {
  it("are logged with the voice when a text is read for synthesis", () => {
    const voice = loadVoiceCatalog().get("cmn-female-1");
    if (!voice) throw new Error("voice missing");
    const warnings: unknown[] = [];
    logUnread(readForVoice("我在𠮷野家吃饭", voice), { warn: (fields: unknown) => warnings.push(fields) });
    logUnread(readForVoice("你好", voice), { warn: (fields: unknown) => warnings.push(fields) });
    expect(warnings).toEqual([{ voice_id: "cmn-female-1", unread: ["𠮷"] }]);
  });
});

describe("English inside Chinese, through the real engine", () => {
  let engine: SpeechEngine;
  beforeAll(() => {
    engine = createEspeakEngine({ threads: 1 });
  });
  afterAll(() => engine.close());

  const speak = async (voiceId: string, text: string, speed = 1) => {
    const voice = loadVoiceCatalog().get(voiceId);
    if (!voice) throw new Error("voice missing");
    const input = readForVoice(text, voice).reading.engine_input;
    if (!engine.synthesizePcm) throw new Error("the espeak engine gives PCM");
    const { pcm, sampleRate } = await engine.synthesizePcm({
      text: input,
      markup: true,
      voice: voice.engine,
      speed,
      pitch: 1,
      volume: 1,
    });
    return { pcm, sampleRate, seconds: pcm.length / sampleRate };
  };

  /** The longest run of silence (10 ms frames below a whisper) between the first and last sound. */
  const longestGap = (pcm: Int16Array, sampleRate: number): number => {
    const frame = Math.round(sampleRate / 100);
    const loud: boolean[] = [];
    for (let at = 0; at + frame <= pcm.length; at += frame) {
      let energy = 0;
      for (let k = at; k < at + frame; k++) energy += (pcm[k] ?? 0) ** 2;
      loud.push(Math.sqrt(energy / frame) > 100);
    }
    const first = loud.indexOf(true);
    const last = loud.lastIndexOf(true);
    let longest = 0;
    let run = 0;
    for (let k = first; k <= last; k++) {
      run = loud[k] ? 0 : run + 1;
      longest = Math.max(longest, run);
    }
    return longest / 100;
  };

  it.each([
    ["yue-female-1", "佢好busy", "佢好BUSY"],
    ["cmn-male-1", "我用Google", "我用GOOGLE"],
  ])("%s says %s as an English word, shorter than its spelt letters, without a pause", async (voiceId, word, spelt) => {
    const asWord = await speak(voiceId, word);
    const asLetters = await speak(voiceId, spelt);
    expect(asWord.seconds).toBeGreaterThan(0.5);
    expect(asWord.seconds).toBeLessThan(asLetters.seconds - 0.4);
    // No gap longer than a stop consonant's closure where the phoneme run gives way to the English word.
    expect(longestGap(asWord.pcm, asWord.sampleRate)).toBeLessThan(0.12);
  });

  it("speaks the English word at the request's speed, as the Chinese around it", async () => {
    const normal = await speak("cmn-female-1", "Google");
    const fast = await speak("cmn-female-1", "Google", 2);
    expect(fast.seconds).toBeLessThan(normal.seconds * 0.7);
  });
});

describe("POST /tts with pronunciation marks", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  it("speaks an override without its marks and bills the text as sent, marks included", async () => {
    const { client } = await t.newCustomer("1");
    const speak = async (text: string) => {
      const answer = data<{ audio_url: string; billing: { raw_chars: number; billable_chars: number } }>(
        await client.tts({ text, voice_id: "cmn-female-1" }),
      );
      const audio = await fetch(answer.audio_url);
      expect(audio.status).toBe(200);
      return { billing: answer.billing, mp3: new Uint8Array(await audio.arrayBuffer()) };
    };
    const plain = await speak("重庆"); // read chong2 qing4 without help
    const same = await speak("重[chong2]庆");
    const other = await speak("重[zhong4]庆");
    expect(same.billing).toMatchObject({ raw_chars: 10, billable_chars: 50 });
    expect(other.billing).toMatchObject({ raw_chars: 10, billable_chars: 50 });
    // The marks are not read out: the override that agrees with the usual reading gives the
    // very same audio as the plain text, and one that does not agree changes it.
    expect(same.mp3).toEqual(plain.mp3);
    expect(other.mp3).not.toEqual(plain.mp3);
  });
});
