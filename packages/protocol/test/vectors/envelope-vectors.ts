// Loads envelope.json beside this file: the vectors that every implementation
// of the envelope (this package, the client, any other language) must match.
import { readFileSync } from "node:fs";

export interface EnvelopeVector {
  name: string;
  /** The exact UTF-8 JSON text that was encrypted. */
  plaintext: string;
  iv_hex: string;
  /** Standard base64 of the IV, as it travels in an envelope. */
  iv: string;
  encryptedData: string;
}

export interface EnvelopeVectors {
  command: string;
  api_key: string;
  aes_key_hex: string;
  vectors: EnvelopeVector[];
}

export const ENVELOPE_VECTORS_FILE = new URL("./envelope.json", import.meta.url);

function isVector(value: unknown): value is EnvelopeVector {
  if (typeof value !== "object" || value === null) return false;
  const fields = value as Record<string, unknown>;
  return ["name", "plaintext", "iv_hex", "iv", "encryptedData"].every((field) => typeof fields[field] === "string");
}

export function loadEnvelopeVectors(): EnvelopeVectors {
  const parsed = JSON.parse(readFileSync(ENVELOPE_VECTORS_FILE, "utf8")) as Partial<EnvelopeVectors>;
  const { command, api_key, aes_key_hex, vectors } = parsed;
  if (typeof command !== "string" || typeof api_key !== "string" || typeof aes_key_hex !== "string") {
    throw new Error("envelope.json lacks command, api_key or aes_key_hex");
  }
  if (!Array.isArray(vectors) || vectors.length === 0 || !vectors.every(isVector)) throw new Error("envelope.json has no valid vectors");
  return { command, api_key, aes_key_hex, vectors };
}

export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(hex.match(/../g) ?? [], (byte) => Number.parseInt(byte, 16));
}
