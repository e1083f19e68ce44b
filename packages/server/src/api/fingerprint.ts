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
