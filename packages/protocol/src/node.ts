import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { EnvelopeError, envelopeParts, IV_BYTES, plaintextObject, type SealOptions } from "./envelope.js";
import type { Envelope } from "./wire.js";

/**
 * The same envelope through Node's own crypto, synchronously: a server seals
 * every answer and derives a key per request, and WebCrypto's asynchronous
 * round trip costs more than the AES itself. Browsers use the WebCrypto
 * functions of the main entry; both agree on every vector.
 */
export interface NodeEnvelopeKey {
  readonly aesKey: Buffer;
}

export function deriveEnvelopeKeySync(apiKey: string): NodeEnvelopeKey {
  return { aesKey: createHash("sha256").update(apiKey, "utf8").digest() };
}

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolUsed = 0;

/**
 * Random bytes for public values (IVs, ids) from a pool refilled 4 KB at a
 * time: each call into OpenSSL has a fixed cost larger than 16 bytes of
 * output, which showed as 9% of a GET /account's time. Every byte is handed
 * out once. Secrets (API keys) should call `randomBytes` directly.
 */
export function pooledRandomBytes(length: number): Buffer {
  if (length > POOL_BYTES) return randomBytes(length);
  if (poolUsed + length > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolUsed = 0;
  }
  // A memory of its own: a view into `pool` (or a copy into Node's shared
  // Buffer pool) would let `bytes.buffer` reveal the IVs handed out next.
  const bytes = Buffer.alloc(length);
  pool.copy(bytes, 0, poolUsed, poolUsed + length);
  poolUsed += length;
  return bytes;
}

export function sealEnvelopeSync(key: NodeEnvelopeKey, payload: unknown, options: SealOptions = {}): Envelope {
  const iv = options.iv ? Buffer.from(options.iv) : pooledRandomBytes(IV_BYTES);
  if (iv.length !== IV_BYTES) throw new RangeError("iv must be 16 bytes");
  const cipher = createCipheriv("aes-256-cbc", key.aesKey, iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(payload), "utf8"), cipher.final()]);
  return { encryptedData: ciphertext.toString("base64"), iv: iv.toString("base64"), timestamp: options.timestamp ?? Date.now() };
}

/** Exactly the checks of `openEnvelope`, and the same single EnvelopeError for every failure. */
export function openEnvelopeSync(key: NodeEnvelopeKey, envelope: unknown): Record<string, unknown> {
  const { iv, ciphertext } = envelopeParts(envelope);
  let plaintext: Buffer;
  try {
    const decipher = createDecipheriv("aes-256-cbc", key.aesKey, iv);
    plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    throw new EnvelopeError();
  }
  return plaintextObject(plaintext);
}
