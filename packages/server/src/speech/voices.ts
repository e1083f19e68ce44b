/**
 * The voice catalog: which voices the service offers, how each is shown to
 * clients, and what it means to the speech engine. Read once at start from
 * voices.json so operators can add or hide voices without a release.
 */

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { espeakVoiceSchema } from "./espeak/voice.js";
import { httpVoiceSchema } from "./http/voice.js";
import { sherpaVoiceSchema } from "./sherpa/voice.js";

const id = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const engineKinds = ["espeak-ng", "sherpa-onnx", "http"] as const;

const engineSchema = z.discriminatedUnion("kind", [espeakVoiceSchema, sherpaVoiceSchema, httpVoiceSchema], {
  error: () => `kind must be one of ${engineKinds.join(", ")} (no kind means espeak-ng)`,
});

const voiceSchema = z.strictObject({
  /** Stable: clients store it, so renaming a voice means a new id. */
  id: z.string().regex(id, "must be lowercase letters, digits and single hyphens"),
  name: z.string().trim().min(1),
  dialect_code: z.string().regex(id, "must be a lowercase code such as cmn or yue"),
  dialect_label: z.string().trim().min(1),
  /** Optional: an engine's voice may have none worth stating. */
  gender: z.enum(["female", "male"]).optional(),
  /**
   * Which engine speaks the voice and how: `kind` "espeak-ng" (the default,
   * so entries written before other engines keep working), "sherpa-onnx" or "http".
   */
  engine: engineSchema,
  /**
   * Which rules of the text front-end read the voice's texts: "cmn" (Mandarin),
   * "yue" (Cantonese) or "none" (the text as sent). Default: the dialect's own
   * rules when the front-end has them, Mandarin's for a Mandarin-family group
   * (a dialect_code starting "cmn-", such as cmn-sichuan), else none.
   */
  reading: z.enum(["cmn", "yue", "none"]).optional(),
  /** Kept in the file (e.g. while a voice is retired) but neither listed nor usable. */
  hidden: z.boolean().optional(),
});

const catalogSchema = z.array(voiceSchema).superRefine((voices, context) => {
  const seen = new Set<string>();
  const labels = new Map<string, string>();
  voices.forEach((voice, index) => {
    if (seen.has(voice.id)) {
      context.addIssue({ code: "custom", path: [index, "id"], message: `duplicate id "${voice.id}"` });
    }
    seen.add(voice.id);
    // GET /voices groups by label, so one dialect under two labels would split it.
    const label = labels.get(voice.dialect_code) ?? voice.dialect_label;
    if (label !== voice.dialect_label) {
      context.addIssue({
        code: "custom",
        path: [index, "dialect_label"],
        message: `dialect ${voice.dialect_code} is already labelled "${label}"`,
      });
    }
    labels.set(voice.dialect_code, label);
  });
  if (!voices.some((voice) => !voice.hidden)) {
    context.addIssue({ code: "custom", path: [], message: "no voice is visible" });
  }
});

export type Voice = z.infer<typeof voiceSchema>;

/** A voice's `engine` entry: what its engine needs to speak it. */
export type EngineVoice = Voice["engine"];

/** One entry of GET /voices. */
export type VoiceSummary = Pick<Voice, "id" | "name" | "dialect_code" | "gender">;

export interface VoiceCatalog {
  /** A visible voice by id; hidden voices are not found. */
  get(id: string): Voice | undefined;
  /** Visible voices, in file order. */
  list(): Voice[];
  /** Every voice, hidden ones too. */
  all(): Voice[];
  /** Visible voices by dialect label, in file order: the data of GET /voices. */
  grouped(): Record<string, VoiceSummary[]>;
}

// src/speech/voices.ts and dist/speech/voices.js both sit two levels below the package root.
const defaultPath = fileURLToPath(new URL("../../voices.json", import.meta.url));

/**
 * The catalog of `path`, plus `installed`: the voices that `fangyan models add`
 * registered with installed models (sherpa/models.ts). An installed voice whose
 * id the file already has is the file's: an operator's edit wins.
 */
export function loadVoiceCatalog(path: string = defaultPath, installed: readonly Voice[] = []): VoiceCatalog {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`Voice catalog ${path} could not be read: ${why}`, { cause: error });
  }
  if (Array.isArray(json) && installed.length > 0) {
    const inFile = new Set(json.map((entry: unknown) => (entry && typeof entry === "object" && "id" in entry ? entry.id : undefined)));
    json = [...json, ...installed.filter((voice) => !inFile.has(voice.id))];
  }
  const parsed = catalogSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${fieldName(issue.path)}: ${issue.message}`);
    throw new Error(`Voice catalog ${path} is invalid:\n  ${problems.join("\n  ")}`);
  }
  return catalogOf(parsed.data);
}

function catalogOf(voices: readonly Voice[]): VoiceCatalog {
  const visible = voices.filter((voice) => !voice.hidden);
  const byId = new Map(visible.map((voice) => [voice.id, voice]));
  return {
    get: (voiceId) => byId.get(voiceId),
    list: () => [...visible],
    all: () => [...voices],
    grouped: () => {
      const groups: Record<string, VoiceSummary[]> = {};
      for (const { id: voiceId, name, dialect_code, dialect_label, gender } of visible) {
        const group = groups[dialect_label] ?? [];
        group.push({ id: voiceId, name, dialect_code, ...(gender ? { gender } : {}) });
        groups[dialect_label] = group;
      }
      return groups;
    },
  };
}

/** "[2].engine.variant" for path [2, "engine", "variant"]: the way to find it in the file. */
function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(top level)";
  return path.map((key, i) => (typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${String(key)}`)).join("");
}
