import { randomBytes } from "node:crypto";

const AUDIO_ID = /^[A-Za-z0-9_-]{22}$/;

/** 128 random bits, URL-safe: an audio URL is a capability, unguessable. */
export function newAudioId(): string {
  return randomBytes(16).toString("base64url");
}

export function isAudioId(id: string): boolean {
  return AUDIO_ID.test(id);
}

/** The id in a file name such as `<id>.mp3`, or undefined for anything else. */
export function audioIdOfFile(file: string): string | undefined {
  const id = /^(.+)\.mp3$/.exec(file)?.[1];
  return id && isAudioId(id) ? id : undefined;
}

/**
 * An audio id as logs may show it: an audio URL is a bearer capability, so a
 * log line keeps only enough of the id to correlate, never the whole of it.
 */
export function shortAudioId(id: string): string {
  return `${id.slice(0, 6)}…`;
}
