/**
 * `fangyan models list | add | remove`: the operator's tools for sherpa-onnx
 * models (docs/engines.md). Voices of an added model are offered from the
 * next start of the server.
 */

import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import type { Config } from "../../config/config.js";
import { loadVoiceCatalog } from "../voices.js";
import { addModel } from "./add.js";
import { ModelError } from "./layout.js";
import { listModels } from "./models.js";

interface AddFlags {
  name?: string;
  sha256?: string;
  dialect?: string;
  label?: string;
  speakers?: string;
  json?: boolean;
}

export function registerModelsCommand(program: Command, config: () => Config): void {
  const models = program.command("models").description("sherpa-onnx models: list, add, remove (docs/engines.md)");

  models
    .command("list")
    .description("the installed models and their voices")
    .option("--json", "print JSON")
    .action((flags: { json?: boolean }) => {
      const installed = listModels(config().modelsDir).map(({ manifest }) => ({
        name: manifest.name,
        type: manifest.type,
        sample_rate: manifest.sampleRate,
        speakers: manifest.speakers,
        language: manifest.language,
        voices: manifest.voices.map((voice) => voice.id),
        megabytes: Math.round(manifest.modelBytes / 100_000) / 10,
      }));
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(installed)}\n`);
        return;
      }
      if (installed.length === 0)
        process.stdout.write(`No models in ${config().modelsDir}. Add one: npx fangyan models add <folder | .tar.bz2 | URL>\n`);
      for (const model of installed) {
        process.stdout.write(
          `${model.name}  ${model.type}, ${model.sample_rate} Hz, ${model.speakers} speaker(s), ${model.language}, ${model.megabytes} MB\n  voices: ${model.voices.join(", ")}\n`,
        );
      }
    });

  models
    .command("add")
    .description("check a model (a folder, a .tar.bz2, or an http(s) URL of one) and install it with its voices")
    .argument("<source>", "a model folder, a .tar.bz2 archive, or its URL")
    .option("--name <name>", "the model's name (default: from the folder or archive name)")
    .option("--sha256 <hex>", "refuse the archive unless its SHA-256 is this")
    .option("--dialect <code>", "dialect code of its voices (default: from the model's language: cmn or yue)")
    .option("--label <label>", "dialect group label of its voices in GET /voices, e.g. 四川话")
    .option("--speakers <ids>", "comma-separated speaker ids to offer as voices (default: all, up to 8)")
    .option("--json", 'print {"name": ..., "voices": [...]}')
    .action(async (source: string, flags: AddFlags) => {
      const speakers = flags.speakers?.split(",").map((id) => Number(id.trim()));
      try {
        const { manifest } = await addModel(config().modelsDir, source, {
          ...(flags.name ? { name: flags.name } : {}),
          ...(flags.sha256 ? { sha256: flags.sha256 } : {}),
          ...(flags.dialect ? { dialect: flags.dialect } : {}),
          ...(flags.label ? { label: flags.label } : {}),
          ...(speakers ? { speakers } : {}),
          progress: (line) => process.stderr.write(`${line}\n`),
        });
        const voices = manifest.voices.map((voice) => voice.id);
        if (flags.json) {
          process.stdout.write(`${JSON.stringify({ name: manifest.name, voices })}\n`);
          return;
        }
        process.stdout.write(
          `Installed ${manifest.name} (${manifest.type}, ${manifest.sampleRate} Hz, ${manifest.speakers} speaker(s)).\n` +
            `Voices, offered from the next start: ${voices.join(", ")}\n` +
            `To rename or regroup them, copy these entries into your FANGYAN_VOICES_FILE and edit them there:\n${JSON.stringify(manifest.voices, null, 2)}\n`,
        );
      } catch (error) {
        if (error instanceof ModelError) throw new Error(`the model was not installed: ${error.message}`);
        throw error;
      }
    });

  models
    .command("remove")
    .description("remove an installed model and its voices")
    .argument("<name>", "the model's name (npx fangyan models list)")
    .action(async (name: string) => {
      const settings = config();
      const dir = path.join(settings.modelsDir, name);
      if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name) || !existsSync(dir))
        throw new Error(`no model named "${name}" is installed (npx fangyan models list)`);
      // Voices of the voice file that name the model would stop the next start: say which.
      const users = loadVoiceCatalog(settings.voicesFile)
        .all()
        .filter((voice) => voice.engine.kind === "sherpa-onnx" && voice.engine.model === name)
        .map((voice) => voice.id);
      if (users.length > 0) {
        throw new Error(
          `the model "${name}" is used by voices of ${settings.voicesFile ?? "the voice file"}: ${users.join(", ")}; remove or change them first`,
        );
      }
      // Renamed first, so the model is gone at once even if removing its files takes a while.
      const doomed = path.join(settings.modelsDir, `.incoming-removed-${name}`);
      await fs.rename(dir, doomed);
      await fs.rm(doomed, { recursive: true, force: true });
      process.stdout.write(`Removed ${name}; its voices are gone from the next start.\n`);
    });
}
