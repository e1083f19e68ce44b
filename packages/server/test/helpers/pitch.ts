/**
 * A small pitch tracker for the tone tests: normalised autocorrelation over
 * 10 ms frames every 5 ms, voiced frames only, in semitones. (Longer frames
 * lose the period where a tone moves fast: a fourth tone falls 20% in 80 ms.)
 *
 * The figures it gives are defined in docs/reading.md ("Tones"). Each is
 * taken over the syllable's voiced part, the longest run of voiced frames.
 */

/** F0 in Hz at one frame. */
export interface PitchFrame {
  /** Seconds from the start of the samples to the frame's centre. */
  time: number;
  hz: number;
}

const FRAME_SECONDS = 0.01;
const HOP_SECONDS = 0.005;
const MIN_HZ = 60;
const MAX_HZ = 500;
/** A frame is voiced when its best lag correlates at least this well... */
const VOICED_CORRELATION = 0.6;
/** ...and it is no quieter than this, relative to the loudest frame (30 dB). */
const VOICED_LEVEL = 10 ** (-30 / 20);

/** The F0 of every voiced frame, in time order. */
export function trackPitch(pcm: Int16Array, sampleRate: number): PitchFrame[] {
  const size = Math.round(FRAME_SECONDS * sampleRate);
  const hop = Math.round(HOP_SECONDS * sampleRate);
  const minLag = Math.floor(sampleRate / MAX_HZ);
  const maxLag = Math.ceil(sampleRate / MIN_HZ);
  const span = size + maxLag;
  const starts: number[] = [];
  for (let start = 0; start + span <= pcm.length; start += hop) starts.push(start);
  const levels = starts.map((start) => rms(pcm, start, size));
  const loudest = Math.max(0, ...levels);

  const frames: PitchFrame[] = [];
  starts.forEach((start, i) => {
    if ((levels[i] ?? 0) < loudest * VOICED_LEVEL) return;
    const lag = bestLag(pcm, start, size, minLag, maxLag);
    if (lag !== undefined) frames.push({ time: (start + size / 2) / sampleRate, hz: sampleRate / lag });
  });
  return frames;
}

function rms(pcm: Int16Array, start: number, size: number): number {
  let sum = 0;
  for (let i = start; i < start + size; i++) sum += (pcm[i] ?? 0) ** 2;
  return Math.sqrt(sum / size);
}

/**
 * The period in samples (with parabolic interpolation) whose normalised
 * correlation is highest, preferring the shortest lag within 10% of the best
 * so that twice the period (which correlates almost as well) is not taken;
 * undefined when nothing correlates well enough to be voiced.
 */
function bestLag(pcm: Int16Array, start: number, size: number, minLag: number, maxLag: number): number | undefined {
  const correlations = new Float64Array(maxLag + 2);
  let energy0 = 0;
  for (let i = start; i < start + size; i++) energy0 += (pcm[i] ?? 0) ** 2;
  let energyLag = 0;
  for (let i = start + minLag - 1; i < start + minLag - 1 + size; i++) energyLag += (pcm[i] ?? 0) ** 2;
  let best = 0;
  for (let lag = minLag - 1; lag <= maxLag + 1; lag++) {
    if (lag >= minLag) {
      // Slide the lagged window by one sample.
      energyLag += (pcm[start + lag - 1 + size] ?? 0) ** 2 - (pcm[start + lag - 1] ?? 0) ** 2;
    }
    let sum = 0;
    for (let i = 0; i < size; i++) sum += (pcm[start + i] ?? 0) * (pcm[start + i + lag] ?? 0);
    const value = energy0 > 0 && energyLag > 0 ? sum / Math.sqrt(energy0 * energyLag) : 0;
    correlations[lag] = value;
    if (lag >= minLag && lag <= maxLag) best = Math.max(best, value);
  }
  if (best < VOICED_CORRELATION) return undefined;
  for (let lag = minLag; lag <= maxLag; lag++) {
    const here = correlations[lag] ?? 0;
    const isPeak = here >= (correlations[lag - 1] ?? 0) && here >= (correlations[lag + 1] ?? 0);
    if (isPeak && here >= best * 0.9) {
      const before = correlations[lag - 1] ?? 0;
      const after = correlations[lag + 1] ?? 0;
      const curvature = before - 2 * here + after;
      return curvature < 0 ? lag + (0.5 * (before - after)) / curvature : lag;
    }
  }
  return undefined;
}

/** Semitones from `to` up to `from` (negative when `from` is lower). */
export function semitones(from: number, to: number): number {
  return 12 * Math.log2(from / to);
}

/** Semitones from the syllable's median beyond which a frame is taken for an octave error. */
const OCTAVE_ERROR = 9;

/** The shape of one syllable's pitch, in semitones above 100 Hz. */
export interface Contour {
  /** Median over the voiced part. */
  mean: number;
  /** Median of the first quarter of the voiced part. */
  start: number;
  /** Median of the last quarter of the voiced part. */
  end: number;
  /** Lowest and highest value of the voiced part, after a 5-frame (25 ms) median filter. */
  min: number;
  max: number;
  /** Length of the voiced part in seconds. */
  seconds: number;
}

/**
 * The contour of the longest run of voiced frames (a gap of more than 15 ms
 * ends a run): the syllable's vowel and voiced coda, without the voiced
 * stretches of noise an initial consonant may leave.
 */
export function contourOf(frames: readonly PitchFrame[]): Contour {
  return contourOfRun(longestRun(frames));
}

/** The contour of these frames as one stretch, gaps and all (several syllables of a phrase). */
export function contourOfRun(run: readonly PitchFrame[]): Contour {
  const all = run.map((frame) => semitones(frame.hz, 100));
  // A frame an octave off (a doubled or halved period) is a tracking error, not a tone.
  const centre = median(all);
  const values = all.filter((value) => Math.abs(value - centre) < OCTAVE_ERROR);
  if (values.length < 8) throw new Error(`only ${values.length} voiced frames`);
  const smoothed = values.map((_, i) => median(values.slice(Math.max(0, i - 2), i + 3)));
  const quarter = Math.max(1, Math.floor(values.length / 4));
  return {
    mean: median(values),
    start: median(values.slice(0, quarter)),
    end: median(values.slice(-quarter)),
    min: Math.min(...smoothed),
    max: Math.max(...smoothed),
    seconds: (run.at(-1)?.time ?? 0) - (run[0]?.time ?? 0),
  };
}

function longestRun(frames: readonly PitchFrame[]): readonly PitchFrame[] {
  return voicedRuns(frames).reduce<readonly PitchFrame[]>((best, run) => (run.length > best.length ? run : best), []);
}

/** The runs of voiced frames, in time order; a gap of more than 15 ms ends a run. */
export function voicedRuns(frames: readonly PitchFrame[]): PitchFrame[][] {
  const runs: PitchFrame[][] = [];
  let previous: PitchFrame | undefined;
  for (const frame of frames) {
    const current = runs.at(-1);
    if (current && previous && frame.time - previous.time <= 0.015) current.push(frame);
    else runs.push([frame]);
    previous = frame;
  }
  return runs;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The tone figures of docs/reading.md, in semitones, from citation syllables in tone order. */
export type ToneFigures = Record<string, number>;

/** Contours of one syllable per tone: Cantonese tones 1-6, or Mandarin tones 1-4. */
export function toneFigures(dialect: "yue" | "cmn", tones: readonly Contour[]): ToneFigures {
  const tone = (n: number): Contour => {
    const contour = tones[n - 1];
    if (!contour) throw new Error(`no syllable for tone ${n}`);
    return contour;
  };
  const rise = (c: Contour) => c.end - c.min;
  const fall = (c: Contour) => c.max - c.end;
  if (dialect === "yue") {
    return {
      "T1 mean - T4 end": tone(1).mean - tone(4).end,
      "T3 mean - T6 mean": tone(3).mean - tone(6).mean,
      "T2 rise": rise(tone(2)),
      "T5 rise": rise(tone(5)),
      "T4 fall": fall(tone(4)),
    };
  }
  return {
    "T4 fall": fall(tone(4)),
    "T2 rise": rise(tone(2)),
    "T1 mean - T3 min": tone(1).mean - tone(3).min,
  };
}
