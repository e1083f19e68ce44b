/**
 * How long sound goes on after speech ends: an echo shows as a quiet copy of
 * the last syllable after it (espeak-ng's f2 went on 140 ms at about -30 dB).
 */

const FRAME_SECONDS = 0.01;
/** Speech: a frame within 20 dB of the loudest. */
const SPEECH_DB = -20;
/** Anything: a frame within 50 dB of the loudest. */
const SOUND_DB = -50;

/** Seconds from the end of the last speech frame to the end of the last frame with any sound. */
export function tailAfterSpeech(pcm: Int16Array, sampleRate: number): number {
  const size = Math.round(FRAME_SECONDS * sampleRate);
  const levels: number[] = [];
  for (let start = 0; start + size <= pcm.length; start += size) {
    let sum = 0;
    for (let i = start; i < start + size; i++) sum += (pcm[i] ?? 0) ** 2;
    levels.push(10 * Math.log10(sum / size + 1e-9));
  }
  const loudest = Math.max(...levels);
  const lastAbove = (db: number) => levels.findLastIndex((level) => level >= loudest + db);
  return (lastAbove(SOUND_DB) - lastAbove(SPEECH_DB)) * FRAME_SECONDS;
}
