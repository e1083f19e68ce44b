import path from "node:path";
import type { OfflineTtsConfig } from "sherpa-onnx-node";
import type { ModelLayout } from "./layout.js";

/**
 * sherpa-onnx's configuration for an installed model. One intra-op thread:
 * parallelism comes from Fangyan's worker threads, one synthesis each, as
 * for espeak-ng. Long texts arrive already cut into sentences' worth of
 * parts, so sherpa-onnx's own batching is left at one sentence at a time.
 */
export function ttsConfigOf(dir: string, layout: Pick<ModelLayout, "type" | "files">): OfflineTtsConfig {
  const at = (file: string | undefined) => (file === undefined ? undefined : path.join(dir, file));
  const { files } = layout;
  const optional = (key: string, value: string | undefined) => (value === undefined ? {} : { [key]: value });
  const shared = {
    tokens: path.join(dir, files.tokens),
    ...optional("dataDir", at(files.dataDir)),
    ...optional("dictDir", at(files.dictDir)),
  };
  const lexicon = files.lexicon
    ?.split(",")
    .map((file) => path.join(dir, file))
    .join(",");
  const model: OfflineTtsConfig["model"] =
    layout.type === "vits"
      ? { vits: { model: path.join(dir, files.model), ...shared, ...optional("lexicon", lexicon) } }
      : layout.type === "matcha"
        ? {
            matcha: {
              acousticModel: path.join(dir, files.model),
              vocoder: path.join(dir, files.vocoder ?? ""),
              ...shared,
              ...optional("lexicon", lexicon),
            },
          }
        : {
            kokoro: {
              model: path.join(dir, files.model),
              voices: path.join(dir, files.voices ?? ""),
              ...shared,
              ...optional("lexicon", lexicon),
            },
          };
  return {
    model: { ...model, numThreads: 1, debug: 0, provider: "cpu" },
    maxNumSentences: 1,
    ...optional("ruleFsts", files.ruleFsts?.map((file) => path.join(dir, file)).join(",")),
    ...optional("ruleFars", files.ruleFars?.map((file) => path.join(dir, file)).join(",")),
  };
}
