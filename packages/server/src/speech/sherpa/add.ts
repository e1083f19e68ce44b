/**
 * `fangyan models add <folder | .tar.bz2 | URL>`: brings a model in, checks
 * it, and installs it under the models folder. Everything happens in a fresh
 * folder inside the models folder and is renamed into place only once the
 * model has passed every check and its manifest is written, so an add that
 * fails, or is killed, never leaves a half-written model behind.
 */

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { extract } from "tar-stream";
import unbzip2 from "unbzip2-stream";
import { ttsConfigOf } from "./config.js";
import { inspectModel, ModelError, type ModelLayout } from "./layout.js";
import {
  type DialectChoice,
  type InstalledModel,
  incomingDir,
  MANIFEST,
  type ModelManifest,
  modelNameOf,
  sha256Of,
  voicesOf,
} from "./models.js";

export interface AddOptions extends DialectChoice {
  name?: string;
  /** The archive's expected SHA-256 (hex); a download or file that differs is refused. */
  sha256?: string;
  /** Speaker ids to register as voices; default: all, up to the first 8. */
  speakers?: number[];
  /** Progress lines (a download's percentage). */
  progress?: (line: string) => void;
}

const DEFAULT_SPEAKERS = 8;

export async function addModel(modelsDir: string, source: string, options: AddOptions = {}): Promise<InstalledModel> {
  const name = options.name ?? modelNameOf(source);
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name))
    throw new ModelError(`"${name}" is not a usable model name: use lowercase letters, digits and single hyphens (--name)`);
  const target = path.join(modelsDir, name);
  if (existsSync(target))
    throw new ModelError(
      `a model named "${name}" is already installed; remove it first (npx fangyan models remove ${name}) or pass --name`,
    );
  const work = await incomingDir(modelsDir);
  try {
    const root = await bringIn(source, work, options);
    const layout = inspectModel(root);
    await probe(root, layout);
    const speakers = options.speakers ?? Array.from({ length: Math.min(layout.speakers, DEFAULT_SPEAKERS) }, (_, sid) => sid);
    const modelFile = path.join(root, layout.files.model);
    const manifest: ModelManifest = {
      name,
      ...layout,
      sha256: await sha256Of(modelFile),
      modelBytes: statSync(modelFile).size,
      addedAt: new Date().toISOString(),
      source: /^https?:/i.test(source) ? source.replace(/[?#].*$/, "") : path.resolve(source),
      voices: voicesOf(name, layout, options, speakers),
    };
    await fs.writeFile(path.join(root, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    await fs.rename(root, target);
    return { dir: target, manifest };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** The model's folder inside `work`: a copy of a folder, or an archive (downloaded first) unpacked. */
async function bringIn(source: string, work: string, options: AddOptions): Promise<string> {
  let archive: string;
  if (/^https?:\/\//i.test(source)) {
    archive = path.join(work, "download.tar.bz2");
    await download(source, archive, options);
  } else if (existsSync(source) && statSync(source).isDirectory()) {
    const copy = path.join(work, "model");
    await fs.cp(source, copy, { recursive: true, dereference: true });
    return copy;
  } else if (existsSync(source)) {
    archive = source;
    if (options.sha256) await verify(await sha256Of(archive), options.sha256);
  } else {
    throw new ModelError(`${source} is neither a folder, an archive nor an http(s) URL`);
  }
  if (!/\.(tar\.bz2|tbz2?)$/i.test(source.replace(/[?#].*$/, "")))
    throw new ModelError(`${source} is not a .tar.bz2 archive, the form sherpa-onnx releases its models in`);
  const unpacked = path.join(work, "unpacked");
  await unpack(archive, unpacked);
  return soleFolder(unpacked);
}

async function download(url: string, file: string, options: AddOptions): Promise<void> {
  const response = await fetch(url, { redirect: "follow" }).catch((error: unknown) => {
    throw new ModelError(`${url} could not be fetched (${error instanceof Error ? error.message : String(error)})`);
  });
  if (!response.ok || !response.body) throw new ModelError(`${url} answered HTTP ${response.status}`);
  const total = Number(response.headers.get("content-length") ?? 0);
  const hash = createHash("sha256");
  let received = 0;
  let shown = -1;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      received += chunk.length;
      const percent = total > 0 ? Math.floor((received * 100) / total) : -1;
      const step = total > 0 ? Math.floor(percent / 10) : Math.floor(received / 50_000_000);
      if (step !== shown) {
        shown = step;
        options.progress?.(total > 0 ? `downloaded ${percent}% of ${megabytes(total)}` : `downloaded ${megabytes(received)}`);
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>),
      counter,
      createWriteStream(file),
    );
  } catch (error) {
    throw new ModelError(
      `the download of ${url} broke off after ${megabytes(received)} (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  if (total > 0 && received !== total) throw new ModelError(`the download of ${url} broke off: ${received} of ${total} bytes`);
  if (options.sha256) await verify(hash.digest("hex"), options.sha256);
}

async function verify(actual: string, expected: string): Promise<void> {
  if (actual.toLowerCase() !== expected.trim().toLowerCase())
    throw new ModelError(`the archive's SHA-256 is ${actual}, not the ${expected} given; it was not installed`);
}

/** A .tar.bz2 unpacked into `dir`: regular files and folders only, none outside `dir`. */
async function unpack(archive: string, dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const entries = extract();
  const written = (async () => {
    for await (const entry of entries) {
      const { name, type } = entry.header;
      const target = path.resolve(dir, name);
      if (!target.startsWith(`${dir}${path.sep}`) && target !== dir)
        throw new ModelError(`the archive holds a path outside its folder (${name}); refused`);
      if (type === "directory") await fs.mkdir(target, { recursive: true });
      else if (type === "file") {
        await fs.mkdir(path.dirname(target), { recursive: true });
        await pipeline(entry, createWriteStream(target));
        continue;
      }
      entry.resume();
    }
  })();
  try {
    await Promise.all([pipeline(createReadStream(archive), unbzip2(), entries), written]);
  } catch (error) {
    if (error instanceof ModelError) throw error;
    throw new ModelError(
      `${path.basename(archive)} is not a readable .tar.bz2 archive (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/** sherpa-onnx's archives hold one top-level folder; an archive of the files alone is its own folder. */
async function soleFolder(dir: string): Promise<string> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const [only] = entries;
  return entries.length === 1 && only?.isDirectory() ? path.join(dir, only.name) : dir;
}

/**
 * The real runtime loads the model and speaks, in a child process: a model
 * that passes every check here but that sherpa-onnx still cannot use ends
 * that process, not the caller.
 */
async function probe(dir: string, layout: ModelLayout): Promise<void> {
  const here = import.meta.url;
  const script = fileURLToPath(
    here.endsWith(".ts") ? new URL("probe.js", here.replace(/\/src\/(?!.*\/src\/)/, "/dist/")) : new URL("probe.js", here),
  );
  const text = /chinese|cantonese|zh|yue|cmn|multi/i.test(layout.language) ? "你好。" : "hello.";
  const child = spawn(process.execPath, [script, JSON.stringify(ttsConfigOf(dir, layout)), text], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err = (err + chunk.toString()).slice(-2000);
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const lastLines = err.trim().split("\n").slice(-3).join(" / ");
  if (code !== 0) throw new ModelError(`sherpa-onnx could not load or run the model (exit ${code}${lastLines ? `: ${lastLines}` : ""})`);
  const result = JSON.parse(out.trim().split("\n").pop() ?? "{}") as { sampleRate?: number; samples?: number };
  if (result.sampleRate !== layout.sampleRate)
    throw new ModelError(`sherpa-onnx reports ${result.sampleRate} Hz where the metadata says ${layout.sampleRate}`);
  if (!result.samples) throw new ModelError(`the model produced no audio for "${text}"`);
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
