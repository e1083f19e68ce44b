import { createHash } from "node:crypto";

/**
 * What identifies a POST for ever: the key that sent it and its ciphertext
 * with its IV. The timestamp is outside the ciphertext, so it is left out: a
 * replay with a new timestamp is the same request. SHA-256 of the key id (not
 * the key) and the envelope, hex.
 */
export function requestFingerprint(keyId: string, iv: string, encryptedData: string): string {
  return createHash("sha256").update(keyId).update("\0").update(iv).update("\0").update(encryptedData).digest("hex");
}

/**
 * What identifies a POST of the OpenAI-compatible API sent with an
 * Idempotency-Key: the key that sent it, the Idempotency-Key and the body. A
 * retry with the same body is the same request, charged once; the same
 * Idempotency-Key with another body is another request. The "idempotency"
 * prefix keeps it apart from every envelope's fingerprint.
 */
export function idempotencyFingerprint(keyId: string, idempotencyKey: string, body: string): string {
  const bodyDigest = createHash("sha256").update(body).digest("hex");
  return createHash("sha256")
    .update("idempotency\0")
    .update(keyId)
    .update("\0")
    .update(idempotencyKey)
    .update("\0")
    .update(bodyDigest)
    .digest("hex");
}
