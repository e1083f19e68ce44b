/**
 * Fitting a part of a longer text so that parts encoded one by one join into
 * one gapless stream. Measured on this LAME build: every encode adds 1 152
 * samples to its input — the encoder delay (576) in front and 576 of padding
 * behind — when the input is a whole number of frames. Below 32 kHz (MPEG-2,
 * 576 samples a frame) n samples encode to ceil(n / 576) + 2 frames; from
 * 32 kHz (MPEG-1, 1 152 a frame) to ceil(n / 1152) + 1. Concatenated, each
 * part therefore occupies a whole number of frames on the joined timeline,
 * and its audio starts exactly where its frames start (the delay of the whole
 * file is skipped once, by the decoder, from the first part's tag).
 *
 * A part whose PCM is cut to a whole number of frames less those 1 152
 * samples encodes to exactly the frames it had: the samples cut from its
 * trailing silence are the ones the next part's encoder delay and this part's
 * padding occupy. The joined timeline then equals the parts' PCM laid end to
 * end, each rounded down to a whole frame (under 27 ms, inside a pause).
 * Parts are cut at the pauses the text front-end writes (or the sentence ends
 * a neural engine pauses at), so what is cut is silence.
 */

/** Samples an encode adds to whole frames of input: LAME's delay plus its padding. */
const encoderOverhead = 1152;

// Samples this quiet (-60 dBFS) count as the pause's silence.
const silence = 32;

/** Samples per MP3 frame at a sample rate: MPEG-1 from 32 kHz, MPEG-2 and 2.5 below. */
export function frameSamplesAt(sampleRate: number): number {
  return sampleRate >= 32_000 ? 1152 : 576;
}

/**
 * The PCM to encode for a part that another part follows. Only trailing
 * silence is removed; when there is too little of it, silence is added
 * instead, and the part takes one frame more on the timeline.
 */
export function fitForJoin(pcm: Int16Array, sampleRate: number): Int16Array {
  const frame = frameSamplesAt(sampleRate);
  const overheadFrames = encoderOverhead / frame;
  let end = pcm.length;
  while (end > 0 && Math.abs(pcm[end - 1] ?? 0) <= silence) end--;
  let frames = Math.floor(pcm.length / frame);
  if ((frames - overheadFrames) * frame < end) frames = Math.ceil(end / frame) + overheadFrames;
  const keep = (frames - overheadFrames) * frame;
  if (keep <= pcm.length) return pcm.subarray(0, keep);
  const padded = new Int16Array(keep);
  padded.set(pcm);
  return padded;
}

/**
 * Where to cut PCM in two, to encode the halves on two threads: in the pause
 * nearest `at`, late enough in it that fitForJoin() on the first half removes
 * only silence. Undefined when no pause is long enough (about 90 ms at 22 kHz).
 */
export function pauseNear(pcm: Int16Array, at: number, sampleRate: number): number | undefined {
  const frame = frameSamplesAt(sampleRate);
  const keepInSecond = frame / 2;
  // fitForJoin cuts up to 1 152 + frame - 1 samples; the rest of the pause goes with the second half.
  const shortest = encoderOverhead + frame + keepInSecond;
  let best: number | undefined;
  let runStart = -1;
  // Only the middle half is searched: a cut far from `at` balances nothing, and
  // the search runs on the event loop (a 24 s synthesis is 530 000 samples).
  const from = Math.max(0, Math.floor(at - pcm.length / 4));
  const to = Math.min(pcm.length, Math.ceil(at + pcm.length / 4));
  for (let i = from; i <= to; i++) {
    if (i < to && Math.abs(pcm[i] ?? 0) <= silence) {
      if (runStart < 0) runStart = i;
      continue;
    }
    if (runStart >= 0 && i < to && i - runStart >= shortest) {
      const cut = i - keepInSecond;
      if (best === undefined || Math.abs(cut - at) < Math.abs(best - at)) best = cut;
    }
    runStart = -1;
  }
  return best;
}
