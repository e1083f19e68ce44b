/**
 * A streaming windowed-sinc resampler for 16-bit mono PCM (Kaiser window,
 * beta 8.6: stop band about -90 dB; 32 zero crossings). Speech engines give
 * 16-44.1 kHz and Opus takes 48 kHz, so it mostly upsamples by a rational
 * ratio (22 050 -> 48 000 is 320/147): each output sample uses one row of a
 * precomputed table of filter phases, and the cost is 32 multiply-adds (more
 * when downsampling, where the filter widens by the ratio).
 */

const zeroCrossings = 16;
const kaiserBeta = 8.6;
// A little below Nyquist, so the transition band falls inside the pass band of neither rate.
const cutoff = 0.94;
const maxPhases = 4096;

function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < sum * 1e-12) break;
  }
  return sum;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

export class Resampler {
  readonly #inRate: number;
  readonly #outRate: number;
  /** Input samples either side of an output sample's position. */
  readonly #halfWidth: number;
  readonly #phases: number;
  readonly #table: Float32Array;
  /** Input not yet consumed, preceded by the history the filter still needs. */
  #buffer = new Float32Array(0);
  /** Absolute input index of #buffer[0]; negative while the leading silence is used. */
  #bufferStart: number;
  #received = 0;
  #produced = 0;

  constructor(inRate: number, outRate: number) {
    if (!Number.isInteger(inRate) || !Number.isInteger(outRate) || inRate <= 0 || outRate <= 0) {
      throw new Error(`Cannot resample ${inRate} Hz to ${outRate} Hz`);
    }
    this.#inRate = inRate;
    this.#outRate = outRate;
    const ratio = Math.min(1, outRate / inRate);
    const fc = cutoff * ratio;
    this.#halfWidth = Math.ceil(zeroCrossings / ratio);
    const exactPhases = outRate / gcd(inRate, outRate);
    this.#phases = Math.min(exactPhases, maxPhases);
    const width = 2 * this.#halfWidth;
    this.#table = new Float32Array(this.#phases * width);
    const norm = besselI0(kaiserBeta);
    for (let phase = 0; phase < this.#phases; phase++) {
      const frac = phase / this.#phases;
      let sum = 0;
      for (let tap = 0; tap < width; tap++) {
        // Tap t reads input floor(position) - halfWidth + 1 + t.
        const x = tap - this.#halfWidth + 1 - frac;
        const w = Math.abs(x) >= this.#halfWidth ? 0 : besselI0(kaiserBeta * Math.sqrt(1 - (x / this.#halfWidth) ** 2)) / norm;
        const sinc = x === 0 ? 1 : Math.sin(Math.PI * fc * x) / (Math.PI * fc * x);
        const value = fc * sinc * w;
        this.#table[phase * width + tap] = value;
        sum += value;
      }
      // Unity gain at DC for every phase, so silence stays silence and no phase hums.
      for (let tap = 0; tap < width; tap++) {
        const index = phase * width + tap;
        this.#table[index] = (this.#table[index] ?? 0) / sum;
      }
    }
    this.#bufferStart = -this.#halfWidth;
    this.#buffer = new Float32Array(this.#halfWidth);
  }

  /** The output samples whose filter window the input so far covers. */
  push(pcm: Int16Array): Int16Array {
    this.#append(pcm);
    return this.#run(false);
  }

  /** The remaining output, the input taken to be followed by silence. */
  end(): Int16Array {
    this.#append(new Int16Array(this.#halfWidth + 1));
    this.#received -= this.#halfWidth + 1;
    return this.#run(true);
  }

  #append(pcm: Int16Array): void {
    const next = new Float32Array(this.#buffer.length + pcm.length);
    next.set(this.#buffer);
    for (let i = 0; i < pcm.length; i++) next[this.#buffer.length + i] = pcm[i] ?? 0;
    this.#buffer = next;
    this.#received += pcm.length;
  }

  #constants() {
    return {
      inRate: this.#inRate,
      outRate: this.#outRate,
      halfWidth: this.#halfWidth,
      phases: this.#phases,
      bufferStart: this.#bufferStart,
    };
  }

  #run(final: boolean): Int16Array {
    const width = 2 * this.#halfWidth;
    const buffer = this.#buffer;
    const table = this.#table;
    const available = this.#bufferStart + buffer.length; // absolute end of the buffer
    const total = final ? Math.ceil((this.#received * this.#outRate) / this.#inRate) : Number.POSITIVE_INFINITY;
    const room = Math.ceil(((available - this.#halfWidth) * this.#outRate) / this.#inRate) - this.#produced + 1;
    const out = new Int16Array(Math.max(0, Math.min(room, total - this.#produced)));
    const { inRate, outRate, halfWidth, phases, bufferStart } = this.#constants();
    let produced = this.#produced;
    let count = 0;
    while (count < out.length) {
      const numerator = produced * inRate;
      const base = Math.floor(numerator / outRate);
      if (base + halfWidth >= available) break; // its last input sample has not come yet
      const rest = numerator - base * outRate;
      const phase = Math.min(phases - 1, Math.round((rest / outRate) * phases));
      const first = base - halfWidth + 1 - bufferStart;
      const row = phase * width;
      let acc = 0;
      for (let tap = 0; tap < width; tap++) acc += (buffer[first + tap] ?? 0) * (table[row + tap] ?? 0);
      out[count++] = Math.max(-32768, Math.min(32767, Math.round(acc)));
      produced++;
    }
    this.#produced = produced;
    // Keep only the history the next output needs.
    const nextBase = Math.floor((this.#produced * this.#inRate) / this.#outRate);
    const keepFrom = nextBase - this.#halfWidth + 1 - this.#bufferStart;
    if (keepFrom > 0) {
      this.#buffer = this.#buffer.slice(keepFrom);
      this.#bufferStart += keepFrom;
    }
    return out.subarray(0, count);
  }
}
