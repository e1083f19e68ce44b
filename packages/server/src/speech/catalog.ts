import type { Config } from "../config/config.js";
import { checkInstalledModel, type InstalledModel, listModels } from "./sherpa/models.js";
import { loadVoiceCatalog, type VoiceCatalog } from "./voices.js";

/**
 * The voices the service offers: the voice file's, plus those of the
 * installed sherpa-onnx models, each model checked first, so that a damaged
 * one stops the start with its name instead of ending the process later.
 */
export function loadCatalog(config: Pick<Config, "voicesFile" | "modelsDir">): { voices: VoiceCatalog; models: InstalledModel[] } {
  const models = listModels(config.modelsDir);
  for (const model of models) checkInstalledModel(model);
  return {
    voices: loadVoiceCatalog(
      config.voicesFile,
      models.flatMap((model) => model.manifest.voices),
    ),
    models,
  };
}
