import { z } from "zod";

/** A voice of a sherpa-onnx model installed with `fangyan models add`: the model's name and a speaker id. */
export const sherpaVoiceSchema = z.strictObject({
  kind: z.literal("sherpa-onnx"),
  model: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be the name of an installed model (npx fangyan models list)"),
  /** The speaker id (sid) of a multi-speaker model; 0 for a single speaker. */
  speaker: z.int().min(0).default(0),
});

export type SherpaVoice = z.infer<typeof sherpaVoiceSchema>;
