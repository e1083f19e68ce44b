import { createHash, randomBytes } from "node:crypto";
import { pooledRandomBytes } from "@fangyan/protocol/node";

/** API keys read `fy_` + 32 base64url characters: 192 random bits. */
export const API_KEY_PREFIX = "fy_";
const API_KEY_PATTERN = /^fy_[A-Za-z0-9_-]{32}$/;
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(24).toString("base64url");
}

export function looksLikeApiKey(text: string): boolean {
  return API_KEY_PATTERN.test(text);
}

/**
 * The only form of a key the server keeps. SHA-256(key) itself is the AES key
 * of the envelope, so the lookup digest is domain-separated and never equal to it.
 */
export function keyLookupDigest(apiKey: string): string {
  return createHash("sha256").update("fangyan/api-key-lookup/v1\0").update(apiKey).digest("hex");
}

/** What operators see in listings: `fy_AbCd1234`. */
export function keyDisplayPrefix(apiKey: string): string {
  return apiKey.slice(0, DISPLAY_PREFIX_LENGTH);
}

/** Readable, prefixed ids with 96 random bits: `acct_…`, `key_…`, `req_…`. Ids are public, so pooled randomness. */
export function newId(prefix: string): string {
  return `${prefix}_${pooledRandomBytes(12).toString("base64url")}`;
}
