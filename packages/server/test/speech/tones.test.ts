import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readForVoice } from "../../src/reading/reader.js";
import type { SpeechEngine } from "../../src/speech/engine.js";
import { espeakLanguagesOf } from "../../src/speech/espeak/arguments.js";
import { createEspeakEngine } from "../../src/speech/espeak/engine.js";
import { loadVoiceCatalog, type Voice } from "../../src/speech/voices.js";
import { decodeMp3, lameInstalled } from "../helpers/decode.js";
import { tailAfterSpeech } from "../helpers/echo.js";
import { type Contour, contourOf, contourOfRun, median, type ToneFigures, toneFigures, trackPitch, voicedRuns } from "../helpers/pitch.js";

// Every voice of the catalog speaks citation syllables through the real engine
// and the front-end's reading; a pitch tracker measures how far each tone
// moves (docs/reading.md, "Tones", defines each figure). A voice that is
// added or retuned cannot ship with tones a listener cannot tell apart.

const voices = loadVoiceCatalog().list();

/** One syllable per tone, in tone order: two sets per dialect, as in issue 19. */
const CITATION: Record<"yue" | "cmn", readonly string[]> = {
  yue: ["詩史試時市事", "分粉訓焚奮份"],
  cmn: ["妈麻马骂", "汤糖躺烫"],
};

/** The least each figure may be, in semitones: what a listener needs to hear the tones apart. */
const FLOORS: Record<"yue" | "cmn", ToneFigures> = {
  yue: { "T1 mean - T4 end": 8, "T3 mean - T6 mean": 2, "T2 rise": 4, "T5 rise": 2.5, "T4 fall": 2 },
  cmn: { "T4 fall": 6, "T2 rise": 4, "T1 mean - T3 min": 5 },
};

let engine: SpeechEngine;
beforeAll(() => {
  engine = createEspeakEngine({ threads: 2, languages: espeakLanguagesOf(voices.map((voice) => voice.engine)) });
});
afterAll(async () => {
  await engine.close();
});

function dialectOf(voice: Voice): "yue" | "cmn" {
  if (voice.dialect_code !== "yue" && voice.dialect_code !== "cmn") throw new Error(`no tone figures for ${voice.dialect_code}`);
  return voice.dialect_code;
}

function request(voice: Voice, text: string) {
  return { text: readForVoice(text, voice).reading.engine_input, markup: true, voice: voice.engine, speed: 1, pitch: 1, volume: 1 };
}

async function samples(voice: Voice, text: string): Promise<{ pcm: Int16Array; sampleRate: number }> {
  if (!engine.synthesizePcm) throw new Error("the espeak engine gives PCM");
  return engine.synthesizePcm(request(voice, text));
}

async function contour(voice: Voice, syllable: string): Promise<Contour> {
  const { pcm, sampleRate } = await samples(voice, syllable);
  return contourOf(trackPitch(pcm, sampleRate));
}

/** Each figure's median over the dialect's sets of syllables. */
async function figuresOf(voice: Voice): Promise<{ figures: ToneFigures; contours: Contour[] }> {
  const dialect = dialectOf(voice);
  const sets = await Promise.all(CITATION[dialect].map((set) => Promise.all([...set].map((syllable) => contour(voice, syllable)))));
  const perSet = sets.map((set) => toneFigures(dialect, set));
  const names = Object.keys(FLOORS[dialect]);
  const figures = Object.fromEntries(names.map((name) => [name, median(perSet.map((set) => set[name] ?? Number.NaN))]));
  return { figures, contours: sets.flat() };
}

const measured = new Map<string, Promise<{ figures: ToneFigures; contours: Contour[] }>>();
function measure(voice: Voice) {
  let figures = measured.get(voice.id);
  if (!figures) {
    figures = figuresOf(voice);
    measured.set(voice.id, figures);
  }
  return figures;
}

describe.each(voices.map((voice) => [voice.id, voice] as const))("voice %s", (_, voice) => {
  it("moves every tone of a citation syllable at least as far as a listener needs", async () => {
    const { figures } = await measure(voice);
    const floors = FLOORS[dialectOf(voice)];
    for (const [name, floor] of Object.entries(floors)) {
      expect(figures[name], `${voice.id} ${name}: ${JSON.stringify(figures)}`).toBeGreaterThanOrEqual(floor);
    }
  });

  it("has no echo: sound stops with the speech", async () => {
    const { pcm, sampleRate } = await samples(voice, dialectOf(voice) === "yue" ? "試" : "骂");
    expect(tailAfterSpeech(pcm, sampleRate)).toBeLessThan(0.04);
  });
});

describe("the voices of a dialect", () => {
  /** The median pitch of all a voice's citation syllables, in semitones above 100 Hz. */
  const level = async (voice: Voice) => median((await measure(voice)).contours.map((c) => c.mean));

  it.each(["yue", "cmn"])("%s: women speak higher than men, and no two voices share a pitch", async (dialect) => {
    const ofDialect = voices.filter((voice) => voice.dialect_code === dialect);
    const levels = await Promise.all(ofDialect.map(async (voice) => ({ voice, level: await level(voice) })));
    const women = levels.filter(({ voice }) => voice.gender === "female").map(({ level }) => level);
    const men = levels.filter(({ voice }) => voice.gender === "male").map(({ level }) => level);
    // About an octave apart, as speakers are; at least 7 semitones.
    expect(Math.min(...women) - Math.max(...men)).toBeGreaterThanOrEqual(7);
    const sorted = levels.map(({ level }) => level).sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect((sorted[i] ?? 0) - (sorted[i - 1] ?? 0)).toBeGreaterThanOrEqual(1);
  });
});

describe("connected speech", () => {
  const ofDialect = (dialect: string) =>
    voices.filter((voice) => voice.dialect_code === dialect).map((voice) => [voice.id, voice] as const);

  it.each(ofDialect("yue"))("%s: 日 jat6 stays level after the high tone of 今 gam1 (今日)", async (_, voice) => {
    const { pcm, sampleRate } = await samples(voice, "今日");
    // The phrase from 今 to the end of 日: nothing in it goes below where the level 日 ends.
    // espeak-ng started the j of a new phoneme word near the bottom of the range, and 日 rose 6 semitones.
    const phrase = contourOfRun(trackPitch(pcm, sampleRate));
    expect(phrase.end - phrase.min).toBeLessThan(1);
  });

  it.each(ofDialect("cmn"))("%s: a third tone before a third tone rises, as a second tone does (很好)", async (_, voice) => {
    const first = async (text: string) => {
      const { pcm, sampleRate } = await samples(voice, text);
      const [syllable] = voicedRuns(trackPitch(pcm, sampleRate)).filter((run) => run.length >= 8);
      if (!syllable) throw new Error(`no voiced syllable in ${text}`);
      return contourOfRun(syllable);
    };
    const sandhi = await first("很好");
    // Like 痕 hen2: lowest at its start, then up.
    expect(sandhi.start - sandhi.min).toBeLessThan(1);
    expect(sandhi.end - sandhi.min).toBeGreaterThanOrEqual(3.5);
    // 很 alone dips first.
    const alone = await first("很");
    expect(alone.start - alone.min).toBeGreaterThanOrEqual(1.5);
  });
});

describe.skipIf(!lameInstalled)("a syllable as a listener gets it, decoded from the MP3 by lame", () => {
  it("falls as far as the engine's own samples say, with no echo", async () => {
    const voice = voices.find((v) => v.dialect_code === "cmn");
    if (!voice) throw new Error("no Mandarin voice");
    const { sampleRate } = await samples(voice, "骂");
    const direct = await contour(voice, "骂");
    const decoded = await decodeMp3((await engine.synthesize(request(voice, "骂"))).mp3);
    const heard = contourOf(trackPitch(decoded, sampleRate));
    const fall = (c: Contour) => c.max - c.end;
    expect(fall(heard)).toBeGreaterThanOrEqual(FLOORS.cmn["T4 fall"] ?? Number.NaN);
    expect(Math.abs(fall(heard) - fall(direct))).toBeLessThan(0.5);
    expect(tailAfterSpeech(decoded, sampleRate)).toBeLessThan(0.04);
  });
});
