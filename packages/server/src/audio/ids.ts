import { randomBytes } from "node:crypto";
import { AUDIO_FORMAT_NAMES, AUDIO_FORMATS, type AudioFormatName } from "@fangyan/protocol";

const AUDIO_ID = /^[A-Za-z0-9_-]{22}$/;

/** 128 random bits, URL-safe: an audio URL is a capability, unguessable. */
export function newAudioId(): string {
  return randomBytes(16).toString("base64url");
}

export function isAudioId(id: string): boolean {
  return AUDIO_ID.test(id);
}

/**
 * What names stored audio everywhere (the ledger's audio_id, the productions,
 * the audio store, audio in progress): the bare id for an MP3, as before
 * other formats existed, and `<id>.<extension>` for any other format.
 */
export function audioKey(id: string, format: AudioFormatName): string {
  return format === "mp3" ? id : `${id}.${AUDIO_FORMATS[format].extension}`;
}

/** The format of stored audio by its key. */
export function formatOfAudioKey(key: string): AudioFormatName {
  const extension = /\.([a-z0-9]+)$/.exec(key)?.[1];
  return AUDIO_FORMAT_NAMES.find((format) => format !== "mp3" && AUDIO_FORMATS[format].extension === extension) ?? "mp3";
}

/**
 * The files kept beside audio whose request asked for timings (tts/timings.ts),
 * named `<id>.<extension>` like the audio: its subtitles, served, and its
 * timings, kept for a replay of the request and never served.
 */
export const SIDECARS = {
  vtt: { contentType: "text/vtt; charset=utf-8", served: true },
  srt: { contentType: "application/x-subrip; charset=utf-8", served: true },
  json: { contentType: "application/json", served: false },
} as const;
export type Sidecar = keyof typeof SIDECARS;

function isSidecar(extension: string | undefined): extension is Sidecar {
  return extension !== undefined && Object.hasOwn(SIDECARS, extension);
}

/** The key of a file beside the audio `key` (whatever its format): `<id>.vtt`, `<id>.srt`, `<id>.json`. */
export function sidecarKey(key: string, sidecar: Sidecar): string {
  return `${key.split(".")[0] ?? key}.${sidecar}`;
}

/** Which file beside audio a key names, or undefined for audio itself. */
export function sidecarOfKey(key: string): Sidecar | undefined {
  const extension = /\.([a-z0-9]+)$/.exec(key)?.[1];
  return isSidecar(extension) ? extension : undefined;
}

/** What a stored file is served and uploaded as. */
export function contentTypeOfKey(key: string): string {
  const sidecar = sidecarOfKey(key);
  return sidecar ? SIDECARS[sidecar].contentType : AUDIO_FORMATS[formatOfAudioKey(key)].contentType;
}

/** Whether a string is an audio key: an id, or an id with the extension of a format other than MP3 or of a file beside it. */
export function isAudioKey(key: string): boolean {
  const [id, extension, ...rest] = key.split(".");
  if (id === undefined || !isAudioId(id) || rest.length > 0) return false;
  if (isSidecar(extension)) return true;
  return extension === undefined || (extension !== "mp3" && AUDIO_FORMAT_NAMES.some((f) => AUDIO_FORMATS[f].extension === extension));
}

/** The file name of stored audio: `<id>.mp3` for an MP3, the key itself otherwise. */
export function audioFileName(key: string): string {
  return key.includes(".") ? key : `${key}.mp3`;
}

/** The audio key of a file name such as `<id>.mp3` or `<id>.wav`, or undefined for anything else. */
export function audioKeyOfFile(file: string): string | undefined {
  if (file.endsWith(".mp3")) {
    const id = file.slice(0, -".mp3".length);
    return isAudioId(id) ? id : undefined;
  }
  return file.includes(".") && isAudioKey(file) ? file : undefined;
}

/**
 * An audio id as logs may show it: an audio URL is a bearer capability, so a
 * log line keeps only enough of the id to correlate, never the whole of it.
 */
export function shortAudioId(key: string): string {
  return `${key.slice(0, 6)}…`;
}
