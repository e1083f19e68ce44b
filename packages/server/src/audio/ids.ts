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

/** A file the audio host serves: `<id>.mp3`, or the subtitles beside it, `<id>.vtt` and `<id>.srt`. */
export function servedFileOf(file: string): { id: string; file: "mp3" | "vtt" | "srt" } | undefined {
  const match = /^(.+)\.(mp3|vtt|srt)$/.exec(file);
  const id = match?.[1];
  const ext = match?.[2];
  if (!id || !isAudioId(id) || (ext !== "mp3" && ext !== "vtt" && ext !== "srt")) return undefined;
  return { id, file: ext };
}

/**
 * An audio id as logs may show it: an audio URL is a bearer capability, so a
 * log line keeps only enough of the id to correlate, never the whole of it.
 */
export function shortAudioId(id: string): string {
  return `${id.slice(0, 6)}…`;
}
