import { z } from "zod";

/**
 * A voice served by an OpenAI-compatible speech server (POST {baseUrl}/audio/speech).
 * Voices with the same baseUrl, model and key share one endpoint: its limit
 * of requests at once and its back-off.
 */
export const httpVoiceSchema = z.strictObject({
  kind: z.literal("http"),
  baseUrl: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL such as http://127.0.0.1:8880/v1" })
    .transform((value) => value.replace(/\/+$/, "")),
  model: z.string().trim().min(1),
  voice: z.string().trim().min(1),
  /** wav: the server says its rate; pcm: 16-bit little-endian mono at `sampleRate`. */
  responseFormat: z.enum(["wav", "pcm"]).default("wav"),
  /** The rate of pcm responses; OpenAI's is 24000. */
  sampleRate: z.int().min(8000).max(192_000).default(24_000),
  /** The name of the environment variable holding the endpoint's API key, sent as a bearer token. */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name")
    .optional(),
  /** How long one request may take before it fails. */
  timeoutMs: z.int().min(100).max(600_000).default(60_000),
  /** Requests to the endpoint at once; more wait in the synthesis queue. */
  maxConcurrent: z.int().min(1).max(1024).default(4),
});

export type HttpVoice = z.infer<typeof httpVoiceSchema>;
