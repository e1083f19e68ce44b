/**
 * The voice catalog: which voices the service offers, how each is shown to
 * clients, and what it means to the speech engine. Read once at start from
 * voices.json so operators can add or hide voices without a release.
 */

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const id = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const voiceSchema = z.strictObject({
  /** Stable: clients store it, so renaming a voice means a new id. */
  id: z.string().regex(id, "must be lowercase letters, digits and single hyphens"),
  name: z.string().trim().min(1),
  dialect_code: z.string().regex(id, "must be a lowercase code such as cmn or yue"),
  dialect_label: z.string().trim().min(1),
  gender: z.enum(["female", "male"]),
  engine: z.strictObject({
    espeakVoice: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/i, "must be an espeak-ng voice name"),
    variant: z
      .string()
      .regex(/^[a-z0-9_]+$/i, "must be an espeak-ng variant name")
      .optional(),
    rate: z.int().min(80).max(450).optional(),
    pitch: z.int().min(0).max(99).optional(),
    /** espeak-ng's pitch base and range in Hz (engine.ts); the tone tests hold every voice to its figures. */
    pitchHz: z
      .tuple([z.int().min(40).max(400), z.int().min(40).max(800)])
      .refine(([base, range]) => range > base, "the range (second) must be above the base (first)")
      .optional(),
  }),
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

/** One entry of GET /voices. */
export type VoiceSummary = Pick<Voice, "id" | "name" | "dialect_code" | "gender">;

export interface VoiceCatalog {
  /** A visible voice by id; hidden voices are not found. */
  get(id: string): Voice | undefined;
  /** Visible voices, in file order. */
  list(): Voice[];
  /** Visible voices by dialect label, in file order: the data of GET /voices. */
  grouped(): Record<string, VoiceSummary[]>;
}

// src/speech/voices.ts and dist/speech/voices.js both sit two levels below the package root.
const defaultPath = fileURLToPath(new URL("../../voices.json", import.meta.url));

export function loadVoiceCatalog(path: string = defaultPath): VoiceCatalog {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`Voice catalog ${path} could not be read: ${why}`, { cause: error });
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
    grouped: () => {
      const groups: Record<string, VoiceSummary[]> = {};
      for (const { id: voiceId, name, dialect_code, dialect_label, gender } of visible) {
        const group = groups[dialect_label] ?? [];
        group.push({ id: voiceId, name, dialect_code, gender });
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
