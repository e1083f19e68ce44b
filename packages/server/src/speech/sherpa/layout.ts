/**
 * What a sherpa-onnx model folder holds, checked before the runtime ever
 * sees it: sherpa-onnx ends the whole process (exit) on a missing metadata
 * key or file, so every check it would fail is made here first, with a
 * message that names what is missing or wrong. The layouts are sherpa-onnx's
 * own, as its release archives ship them:
 *
 * - VITS: one model .onnx, tokens.txt, and lexicon.txt, a jieba dict/ folder
 *   or espeak-ng-data/; optional rule FSTs (*.fst) and FARs (*.far).
 * - Matcha: an acoustic model (model-steps-*.onnx), a vocoder (vocos-*.onnx
 *   or hifigan*.onnx, downloaded separately and put in the folder), tokens.txt
 *   and lexicon.txt or espeak-ng-data/.
 * - Kokoro: model.onnx, voices.bin, tokens.txt, espeak-ng-data/, and for the
 *   Chinese-speaking multi-lang models lexicon-*.txt and dict/.
 */

import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { type OnnxSummary, readOnnxSummaryFile } from "./onnx.js";

export type ModelType = "vits" | "matcha" | "kokoro";

/** Paths relative to the model folder. */
export interface ModelFiles {
  model: string;
  tokens: string;
  lexicon?: string;
  dictDir?: string;
  dataDir?: string;
  ruleFsts?: string[];
  ruleFars?: string[];
  vocoder?: string;
  voices?: string;
}

export interface ModelLayout {
  type: ModelType;
  files: ModelFiles;
  sampleRate: number;
  /** Speakers (sids) the model has; 1 for a single-speaker model. */
  speakers: number;
  /** The model's metadata `language`, as it states it ("Chinese", "Cantonese", "multi-lang", ...). */
  language: string;
}

export class ModelError extends Error {
  override readonly name = "ModelError";
}

// sherpa-onnx's lexicon front-end knows these languages (lexicon.cc) and exits on any other.
const lexiconLanguages = ["english", "german", "spanish", "french", "chinese"];

export function inspectModel(dir: string): ModelLayout {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    throw new ModelError(`${dir} is not a readable folder`);
  }
  const isDir = (name: string) => entries.includes(name) && statSync(path.join(dir, name)).isDirectory();
  const isFile = (name: string) => entries.includes(name) && statSync(path.join(dir, name)).isFile();
  const onnx = entries.filter((name) => name.endsWith(".onnx") && isFile(name)).sort();
  if (onnx.length === 0)
    throw new ModelError(`${dir} holds no .onnx model file; a sherpa-onnx TTS model folder has one (or, for Matcha, two)`);
  if (!isFile("tokens.txt")) throw new ModelError(`${dir} has no tokens.txt, which every sherpa-onnx TTS model needs`);
  const extras = {
    ...(isDir("espeak-ng-data") ? { dataDir: "espeak-ng-data" } : {}),
    ...(isDir("dict") ? { dictDir: "dict" } : {}),
  };

  if (isFile("voices.bin")) {
    const model = onnx.find((name) => name.startsWith("model")) ?? onnx[0] ?? "model.onnx";
    const meta = metadataOf(summaryOf(dir, model), model, ["sample_rate"]);
    if (!extras.dataDir) throw new ModelError(`${dir} looks like a Kokoro model (voices.bin) but has no espeak-ng-data/ folder`);
    const lexicons = entries.filter((name) => /^lexicon.*\.txt$/.test(name) && isFile(name));
    return {
      type: "kokoro",
      files: {
        model,
        tokens: "tokens.txt",
        voices: "voices.bin",
        ...extras,
        ...(lexicons.length > 0 ? { lexicon: lexicons.join(",") } : {}),
      },
      sampleRate: integer(meta, "sample_rate", model),
      speakers: Math.max(1, integer(meta, "n_speakers", model, 1)),
      language: meta.language ?? "multi-lang",
    };
  }

  const vocoder = onnx.find((name) => /^(vocos|hifigan)/i.test(name));
  const acoustic = onnx.find((name) => name.startsWith("model-steps"));
  if (acoustic || vocoder) {
    if (!acoustic) throw new ModelError(`${dir} has a vocoder (${vocoder}) but no Matcha acoustic model (model-steps-*.onnx)`);
    if (!vocoder) {
      throw new ModelError(
        `${dir} has a Matcha acoustic model (${acoustic}) but no vocoder: download vocos-22khz-univ.onnx (or a hifigan vocoder) into the folder`,
      );
    }
    const meta = metadataOf(summaryOf(dir, acoustic), acoustic, ["sample_rate"]);
    const lexicon = isFile("lexicon.txt") ? { lexicon: "lexicon.txt" } : {};
    if (!lexicon.lexicon && !extras.dataDir)
      throw new ModelError(`${dir} has neither lexicon.txt nor espeak-ng-data/; the Matcha model cannot read text`);
    return {
      type: "matcha",
      files: { model: acoustic, vocoder, tokens: "tokens.txt", ...lexicon, ...extras },
      sampleRate: integer(meta, "sample_rate", acoustic),
      speakers: Math.max(1, integer(meta, "n_speakers", acoustic, 1)),
      language: meta.language ?? "unknown",
    };
  }

  if (onnx.length > 1) throw new ModelError(`${dir} holds several .onnx files (${onnx.join(", ")}); a VITS model folder has one`);
  const model = onnx[0] ?? "model.onnx";
  // sherpa-onnx reads these four without a default and exits when one is missing.
  const summary = summaryOf(dir, model);
  const meta = metadataOf(summary, model, ["sample_rate", "n_speakers", "language", "comment"]);
  const expected = ["x", "x_length"];
  if (expected.some((name, i) => summary.inputs[i] !== name)) {
    throw new ModelError(`${model} is not a sherpa-onnx VITS model: its inputs are (${summary.inputs.join(", ")}), not x, x_length, ...`);
  }
  const jieba = meta.jieba === "1";
  if (jieba && !extras.dictDir) throw new ModelError(`${model} segments Chinese with jieba (metadata jieba=1) but the folder has no dict/`);
  const files: ModelFiles = { model, tokens: "tokens.txt" };
  if (isFile("lexicon.txt")) files.lexicon = "lexicon.txt";
  if (jieba && extras.dictDir) files.dictDir = extras.dictDir;
  const piperLike = /piper|coqui|icefall/.test(meta.comment ?? "");
  if (piperLike && extras.dataDir) files.dataDir = extras.dataDir;
  if (meta.frontend !== "characters" && !jieba && !files.dataDir) {
    if (!files.lexicon)
      throw new ModelError(`${dir} has no lexicon.txt (nor espeak-ng-data/ for a piper or coqui model): the model cannot read text`);
    if (!lexiconLanguages.includes((meta.language ?? "").toLowerCase())) {
      throw new ModelError(
        `${model} states language "${meta.language}", which sherpa-onnx's lexicon reader does not know (${lexiconLanguages.join(", ")})`,
      );
    }
  }
  const fsts = entries.filter((name) => name.endsWith(".fst") && isFile(name)).sort();
  const fars = entries.filter((name) => name.endsWith(".far") && isFile(name)).sort();
  if (fsts.length > 0) files.ruleFsts = fsts;
  if (fars.length > 0) files.ruleFars = fars;
  return {
    type: "vits",
    files,
    sampleRate: integer(meta, "sample_rate", model),
    speakers: Math.max(1, integer(meta, "n_speakers", model)),
    language: meta.language ?? "unknown",
  };
}

function summaryOf(dir: string, file: string): OnnxSummary {
  try {
    return readOnnxSummaryFile(path.join(dir, file));
  } catch (error) {
    throw new ModelError(
      `${file} is not a readable ONNX model (${error instanceof Error ? error.message : String(error)}); the file is corrupt or cut short`,
    );
  }
}

function metadataOf({ metadata }: OnnxSummary, file: string, required: readonly string[]): Record<string, string> {
  const missing = required.filter((key) => metadata[key] === undefined);
  if (missing.length > 0) throw new ModelError(`${file} lacks the metadata sherpa-onnx needs: ${missing.join(", ")}`);
  return metadata;
}

function integer(meta: Record<string, string>, key: string, file: string, fallback?: number): number {
  const raw = meta[key];
  if (raw === undefined && fallback !== undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ModelError(`${file} states ${key} "${raw}", not a whole number`);
  return value;
}
