import { base64ToBytes, bytesToBase64 } from "./base64.js";
import type { Envelope } from "./wire.js";

/**
 * The AES key of one API key: SHA-256 of the key string's UTF-8 bytes
 * (interface 5.3). Derive it once per request and reuse it for the answer.
 */
export interface EnvelopeKey {
  readonly cryptoKey: CryptoKey;
}

export const IV_BYTES = 16;
const BLOCK_BYTES = 16;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

function subtle(): SubtleCrypto {
  const webcrypto = globalThis.crypto;
  if (!webcrypto?.subtle) throw new Error("WebCrypto (crypto.subtle) is not available in this runtime");
  return webcrypto.subtle;
}

export async function deriveEnvelopeKey(apiKey: string): Promise<EnvelopeKey> {
  const digest = await subtle().digest("SHA-256", encoder.encode(apiKey));
  const cryptoKey = await subtle().importKey("raw", digest, { name: "AES-CBC" }, false, ["encrypt", "decrypt"]);
  return { cryptoKey };
}

export interface SealOptions {
  /** 16 bytes; a fresh random IV when absent. Fixed only in test vectors. */
  iv?: Uint8Array<ArrayBuffer>;
  /** Milliseconds since the epoch; now when absent. */
  timestamp?: number;
}

/** Encrypts the JSON text of `payload` into an envelope (AES-256-CBC, PKCS#7). */
export async function sealEnvelope(key: EnvelopeKey, payload: unknown, options: SealOptions = {}): Promise<Envelope> {
  const iv = options.iv ?? globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
  if (iv.length !== IV_BYTES) throw new RangeError("iv must be 16 bytes");
  const plaintext = encoder.encode(JSON.stringify(payload));
  const ciphertext = await subtle().encrypt({ name: "AES-CBC", iv }, key.cryptoKey, plaintext);
  return {
    encryptedData: bytesToBase64(new Uint8Array(ciphertext)),
    iv: bytesToBase64(iv),
    timestamp: options.timestamp ?? Date.now(),
  };
}

/**
 * Raised for every way an envelope can fail to open. It deliberately carries
 * no reason: callers must answer all of them the same way (no padding oracle).
 */
export class EnvelopeError extends Error {
  constructor() {
    super("The envelope could not be decrypted");
    this.name = "EnvelopeError";
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks the three envelope fields' types; says nothing about the key. */
export function isEnvelope(value: unknown): value is Envelope {
  return (
    isRecord(value) &&
    typeof value.encryptedData === "string" &&
    typeof value.iv === "string" &&
    typeof value.timestamp === "number" &&
    Number.isSafeInteger(value.timestamp)
  );
}

/** The IV and ciphertext of an envelope, checked for shape, base64, IV and block length. */
export function envelopeParts(envelope: unknown): { iv: Uint8Array<ArrayBuffer>; ciphertext: Uint8Array<ArrayBuffer> } {
  if (!isEnvelope(envelope)) throw new EnvelopeError();
  const iv = base64ToBytes(envelope.iv);
  const ciphertext = base64ToBytes(envelope.encryptedData);
  if (!iv || !ciphertext || iv.length !== IV_BYTES) throw new EnvelopeError();
  if (ciphertext.length === 0 || ciphertext.length % BLOCK_BYTES !== 0) throw new EnvelopeError();
  return { iv, ciphertext };
}

/** Decrypted bytes as the JSON object they must be: strict UTF-8, JSON, an object. */
export function plaintextObject(plaintext: Uint8Array | ArrayBuffer): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(plaintext));
  } catch {
    throw new EnvelopeError();
  }
  if (!isRecord(parsed)) throw new EnvelopeError();
  return parsed;
}

/**
 * Decrypts an envelope whose plaintext must be a JSON object. Any failure
 * (shape, base64, IV length, block length, padding, UTF-8, JSON, not an object)
 * throws the same EnvelopeError.
 */
export async function openEnvelope(key: EnvelopeKey, envelope: unknown): Promise<Record<string, unknown>> {
  const { iv, ciphertext } = envelopeParts(envelope);
  let plaintext: ArrayBuffer;
  try {
    plaintext = await subtle().decrypt({ name: "AES-CBC", iv }, key.cryptoKey, ciphertext);
  } catch {
    throw new EnvelopeError();
  }
  return plaintextObject(plaintext);
}
