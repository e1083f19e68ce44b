/**
 * The installed sherpa-onnx models: one folder each under FANGYAN_MODELS_DIR,
 * in sherpa-onnx's own layout, plus fangyan-model.json, written last, which
 * records what `fangyan models add` checked and the voices it registered.
 * A folder without it (an add that was interrupted) is not a model and is
 * swept by the next add. Voices of installed models join the catalog at start.
 */

import { createHash, randomBytes } from "node:crypto";
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Voice } from "../voices.js";
import { inspectModel, ModelError, type ModelLayout } from "./layout.js";

export const MANIFEST = "fangyan-model.json";
const INCOMING = ".incoming-";

export interface ModelManifest extends ModelLayout {
  name: string;
  /** SHA-256 of the model file (for Matcha, the acoustic model): the model's version in the audio cache key. */
  sha256: string;
  modelBytes: number;
  addedAt: string;
  source: string;
  voices: Voice[];
}

export interface InstalledModel {
  dir: string;
  manifest: ModelManifest;
}

/** Lowercase letters, digits and single hyphens: a model name is also the start of its voices' ids. */
export function modelNameOf(source: string): string {
  const base = path.basename(source.replace(/[?#].*$/, "")).replace(/\.tar\.bz2$|\.tbz2?$/i, "");
  return base
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export function listModels(modelsDir: string): InstalledModel[] {
  if (!existsSync(modelsDir)) return [];
  return readdirSync(modelsDir)
    .filter((name) => !name.startsWith(".") && existsSync(path.join(modelsDir, name, MANIFEST)))
    .sort()
    .map((name) => {
      const dir = path.join(modelsDir, name);
      return { dir, manifest: JSON.parse(readFileSync(path.join(dir, MANIFEST), "utf8")) as ModelManifest };
    });
}

/**
 * At start: each installed model is still what `add` checked (its files in
 * place, its model file of the recorded size, its metadata readable), so a
 * model damaged since cannot end the process when a worker loads it.
 */
export function checkInstalledModel({ dir, manifest }: InstalledModel): void {
  const modelFile = path.join(dir, manifest.files.model);
  const size = existsSync(modelFile) ? statSync(modelFile).size : -1;
  if (size !== manifest.modelBytes) {
    throw new ModelError(
      `model "${manifest.name}" in ${dir} is damaged: ${manifest.files.model} is ${size < 0 ? "missing" : `${size} bytes, not ${manifest.modelBytes}`}; ` +
        `remove it (npx fangyan models remove ${manifest.name}) and add it again`,
    );
  }
  try {
    inspectModel(dir);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ModelError(
      `model "${manifest.name}" in ${dir} is damaged: ${why}; remove it (npx fangyan models remove ${manifest.name}) and add it again`,
    );
  }
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** A fresh folder inside modelsDir for an add in progress; renamed into place once complete, so a model is never half there. */
export async function incomingDir(modelsDir: string): Promise<string> {
  await fs.mkdir(modelsDir, { recursive: true });
  // Leftovers of an add that was killed: never a model, safe to remove.
  for (const name of readdirSync(modelsDir)) {
    if (name.startsWith(INCOMING)) await fs.rm(path.join(modelsDir, name), { recursive: true, force: true });
  }
  const dir = path.join(modelsDir, `${INCOMING}${randomBytes(6).toString("hex")}`);
  await fs.mkdir(dir);
  return dir;
}

export interface DialectChoice {
  dialect?: string;
  label?: string;
}

const knownDialects: Record<string, { code: string; label: string }> = {
  chinese: { code: "cmn", label: "普通话" },
  mandarin: { code: "cmn", label: "普通话" },
  zh: { code: "cmn", label: "普通话" },
  cmn: { code: "cmn", label: "普通话" },
  cantonese: { code: "yue", label: "粤语" },
  yue: { code: "yue", label: "粤语" },
};

/** The catalog entries of a model's voices: one per speaker asked for, in the dialect its metadata states or the operator names. */
export function voicesOf(name: string, layout: ModelLayout, choice: DialectChoice, speakers: readonly number[]): Voice[] {
  const stated = knownDialects[layout.language.toLowerCase()];
  const code = choice.dialect ?? stated?.code;
  const label = choice.label ?? (code ? Object.values(knownDialects).find((known) => known.code === code)?.label : undefined);
  if (code === undefined || label === undefined) {
    throw new ModelError(
      `the model states language "${layout.language}"; name the dialect group of its voices with --dialect CODE --label LABEL (e.g. --dialect cmn-sichuan --label 四川话)`,
    );
  }
  for (const sid of speakers) {
    if (!Number.isInteger(sid) || sid < 0 || sid >= layout.speakers) {
      throw new ModelError(`the model has ${layout.speakers} speaker(s), numbered 0 to ${layout.speakers - 1}; there is no speaker ${sid}`);
    }
  }
  return speakers.map((sid) => ({
    id: `${name}-${sid}`,
    name: layout.speakers > 1 ? `${name} · ${sid}` : name,
    dialect_code: code,
    dialect_label: label,
    engine: { kind: "sherpa-onnx", model: name, speaker: sid },
  }));
}
