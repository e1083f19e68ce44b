/**
 * The audio formats a client may ask for (`format` of POST /tts,
 * `response_format` of /v1/audio/speech): their file extension and HTTP
 * Content-Type. The server's encoders live in packages/server/src/audio-formats.
 */

export const AUDIO_FORMATS = {
  mp3: { extension: "mp3", contentType: "audio/mpeg" },
  wav: { extension: "wav", contentType: "audio/wav" },
  pcm: { extension: "pcm", contentType: "audio/pcm" },
  opus: { extension: "opus", contentType: "audio/ogg; codecs=opus" },
  flac: { extension: "flac", contentType: "audio/flac" },
} as const;

export type AudioFormatName = keyof typeof AUDIO_FORMATS;

export const AUDIO_FORMAT_NAMES = Object.keys(AUDIO_FORMATS) as AudioFormatName[];

/** What POST /tts answers in when no `format` is given: the interface's MP3. */
export const DEFAULT_AUDIO_FORMAT: AudioFormatName = "mp3";

/**
 * The sample rate of `pcm`, which its bytes cannot state: 24 kHz, as OpenAI's
 * speech API documents for its own `pcm`, so that clients written for it play ours.
 */
export const PCM_SAMPLE_RATE = 24_000;

export function isAudioFormatName(value: unknown): value is AudioFormatName {
  return typeof value === "string" && Object.hasOwn(AUDIO_FORMATS, value);
}

/** The format a file name's extension names (`out.wav` -> wav), case aside; undefined for any other. */
export function audioFormatOfFileName(name: string): AudioFormatName | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return AUDIO_FORMAT_NAMES.find((format) => AUDIO_FORMATS[format].extension === extension);
}
