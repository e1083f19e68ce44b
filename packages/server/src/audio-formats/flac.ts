/**
 * FLAC, 16-bit mono, written here: each block of 4096 samples is a constant
 * subframe (silence) or a fixed-predictor subframe (orders 0-4) with
 * partitioned Rice residuals, whichever is smallest. That is the "fixed"
 * half of libFLAC's toolbox (no LPC search): on speech it lands within about
 * 10 % of `flac -5` and is an order of magnitude faster than libFLAC in
 * WebAssembly (docs/formats.md). A whole file's STREAMINFO states the sample
 * count and MD5; a stream's leaves both unknown (0), as the format allows.
 */

import { createHash } from "node:crypto";
import { AUDIO_FORMATS } from "@fangyan/protocol";
import { BitWriter, crc8, crc16 } from "./bits.js";
import { type AudioFormat, concatBytes, pcmBytes, type StreamEncoder } from "./format.js";

const blockSize = 4096;
const maxPartitionOrder = 6;
// The 4-bit Rice parameter of coding method 0 reaches 14 (15 is the escape).
const maxRiceParameter = 14;

function streamInfo(sampleRate: number, totalSamples: number, md5: Uint8Array): Uint8Array {
  const w = new BitWriter();
  w.write(0x664c_6143 >>> 8, 24); // "fLa"
  w.write(0x43, 8); // "C"
  w.write(1, 1); // last metadata block
  w.write(0, 7); // STREAMINFO
  w.write(34, 24);
  w.write(blockSize, 16);
  w.write(blockSize, 16);
  w.write(0, 24); // min frame size unknown
  w.write(0, 24); // max frame size unknown
  w.write(sampleRate, 20);
  w.write(0, 3); // one channel
  w.write(15, 5); // 16 bits a sample
  w.writeLong(totalSamples, 36);
  for (const byte of md5) w.write(byte, 8);
  return w.bytes().slice();
}

function writeUtf8Number(w: BitWriter, value: number): void {
  if (value < 0x80) {
    w.write(value, 8);
    return;
  }
  let bytes = 2;
  while (value >= 2 ** (5 * bytes + 1)) bytes++;
  w.write(((0xff << (8 - bytes)) & 0xff) | Math.floor(value / 2 ** (6 * (bytes - 1))), 8);
  for (let i = bytes - 2; i >= 0; i--) w.write(0x80 | (Math.floor(value / 2 ** (6 * i)) & 0x3f), 8);
}

function residualOf(samples: Int16Array, order: number): Int32Array {
  const out = new Int32Array(samples.length - order);
  for (let i = order; i < samples.length; i++) {
    const s0 = samples[i] ?? 0;
    const s1 = samples[i - 1] ?? 0;
    const s2 = samples[i - 2] ?? 0;
    const s3 = samples[i - 3] ?? 0;
    const s4 = samples[i - 4] ?? 0;
    let predicted = 0;
    if (order === 1) predicted = s1;
    else if (order === 2) predicted = 2 * s1 - s2;
    else if (order === 3) predicted = 3 * s1 - 3 * s2 + s3;
    else if (order === 4) predicted = 4 * s1 - 6 * s2 + 4 * s3 - s4;
    out[i - order] = s0 - predicted;
  }
  return out;
}

const zigzag = (r: number) => (r >= 0 ? 2 * r : -2 * r - 1);

/**
 * The Rice parameter for a partition whose zigzagged residuals sum to `sum`,
 * and an estimate of its bits (exact but for the rounding of each quotient),
 * which is what libFLAC compares partitionings by too.
 */
function riceCost(sum: number, count: number): { parameter: number; bits: number } {
  let parameter = 0;
  while (parameter < maxRiceParameter && count * 2 ** (parameter + 1) < sum) parameter++;
  return { parameter, bits: 4 + count * (1 + parameter) + Math.floor(sum / 2 ** parameter) };
}

interface Plan {
  order: number;
  residual: Int32Array;
  partitionOrder: number;
  parameters: number[];
  bits: number;
}

function plan(samples: Int16Array, order: number): Plan | undefined {
  if (samples.length <= order) return undefined;
  const residual = residualOf(samples, order);
  // Sums over the finest partitioning the block allows, merged pairwise for the coarser ones.
  let finest = 0;
  while (
    finest < maxPartitionOrder &&
    (samples.length >> (finest + 1)) << (finest + 1) === samples.length &&
    samples.length >> (finest + 1) > order
  ) {
    finest++;
  }
  const finestSize = samples.length >> finest;
  let sums = new Float64Array(1 << finest);
  for (let i = 0; i < residual.length; i++) {
    const k = Math.floor((i + order) / finestSize);
    sums[k] = (sums[k] ?? 0) + zigzag(residual[i] ?? 0);
  }
  let best: Plan | undefined;
  for (let p = finest; p >= 0; p--) {
    const partition = samples.length >> p;
    const parameters: number[] = [];
    let bits = 0;
    for (let k = 0; k < 1 << p; k++) {
      const cost = riceCost(sums[k] ?? 0, k === 0 ? partition - order : partition);
      parameters.push(cost.parameter);
      bits += cost.bits;
    }
    if (!best || bits < best.bits) best = { order, residual, partitionOrder: p, parameters, bits };
    const coarser = new Float64Array(sums.length >> 1);
    for (let k = 0; k < coarser.length; k++) coarser[k] = (sums[2 * k] ?? 0) + (sums[2 * k + 1] ?? 0);
    sums = coarser;
  }
  return best;
}

function writeFrame(w: BitWriter, samples: Int16Array, frameNumber: number): void {
  const start = w.byteLength;
  w.write(0b11111111111110, 14);
  w.write(0, 1); // reserved
  w.write(0, 1); // fixed block size
  const whole = samples.length === blockSize;
  w.write(whole ? 0b1100 : 0b0111, 4); // 4096, or a 16-bit size at the end of the header
  w.write(0, 4); // sample rate: from STREAMINFO
  w.write(0, 4); // mono
  w.write(0b100, 3); // 16 bits
  w.write(0, 1);
  writeUtf8Number(w, frameNumber);
  if (!whole) w.write(samples.length - 1, 16);
  w.write(crc8(w.bytes(start)), 8);

  const first = samples[0] ?? 0;
  if (samples.every((s) => s === first)) {
    w.write(0, 8); // constant subframe, no wasted bits
    w.write(first & 0xffff, 16);
  } else {
    let best: Plan | undefined;
    for (let order = 0; order <= 4; order++) {
      const candidate = plan(samples, order);
      if (candidate && (!best || candidate.bits + 16 * order < best.bits + 16 * best.order)) best = candidate;
    }
    if (!best || best.bits + 16 * best.order >= 16 * samples.length) {
      w.write(0b00000010, 8); // verbatim
      for (const s of samples) w.write(s & 0xffff, 16);
    } else {
      w.write(0b00010000 | (best.order << 1), 8); // fixed predictor of this order
      for (let i = 0; i < best.order; i++) w.write((samples[i] ?? 0) & 0xffff, 16);
      w.write(0, 2); // Rice, 4-bit parameters
      w.write(best.partitionOrder, 4);
      const partition = samples.length >> best.partitionOrder;
      best.parameters.forEach((parameter, k) => {
        w.write(parameter, 4);
        const from = k === 0 ? 0 : k * partition - best.order;
        for (let i = from; i < (k + 1) * partition - best.order; i++) {
          const u = zigzag(best.residual[i] ?? 0);
          w.unary(Math.floor(u / 2 ** parameter));
          w.write(u, parameter);
        }
      });
    }
  }
  w.alignToByte();
  const crc = crc16(w.bytes(start));
  w.write(crc, 16);
}

class FlacStream implements StreamEncoder {
  #writer = new BitWriter();
  #pending = new Int16Array(0);
  #frames = 0;
  #header: Uint8Array | undefined;
  readonly #sampleRate: number;
  readonly #md5 = createHash("md5");
  #samples = 0;

  constructor(sampleRate: number, header: Uint8Array | undefined) {
    this.#sampleRate = sampleRate;
    this.#header = header;
  }

  push(pcm: Int16Array): Uint8Array {
    this.#md5.update(pcmBytes(pcm));
    this.#samples += pcm.length;
    const all = new Int16Array(this.#pending.length + pcm.length);
    all.set(this.#pending);
    all.set(pcm, this.#pending.length);
    let offset = 0;
    for (; offset + blockSize <= all.length; offset += blockSize)
      writeFrame(this.#writer, all.subarray(offset, offset + blockSize), this.#frames++);
    this.#pending = all.slice(offset);
    return this.#take();
  }

  end(): Uint8Array {
    if (this.#pending.length > 0) writeFrame(this.#writer, this.#pending, this.#frames++);
    this.#pending = new Int16Array(0);
    return this.#take();
  }

  /** The stored file's STREAMINFO states the sample count and MD5, as a whole file's does. */
  seal(file: Uint8Array): Uint8Array {
    const info = streamInfo(this.#sampleRate, this.#samples, this.#md5.digest());
    const sealed = Uint8Array.from(file);
    sealed.set(info);
    return sealed;
  }

  #take(): Uint8Array {
    // Every frame ends on a byte, so a fresh writer continues the stream.
    const out = this.#writer.bytes();
    this.#writer = new BitWriter();
    if (!this.#header) return out;
    const withHeader = concatBytes([this.#header, out]);
    this.#header = undefined;
    return withHeader;
  }
}

/** A stream whose STREAMINFO states the sample count and MD5 as unknown (0) until it is sealed. */
function flacStream(sampleRate: number): FlacStream {
  return new FlacStream(sampleRate, streamInfo(sampleRate, 0, new Uint8Array(16)));
}

export const flacFormat: AudioFormat = {
  name: "flac",
  ...AUDIO_FORMATS.flac,
  outputSampleRate: (sampleRate) => sampleRate,
  encode: async (pcm, sampleRate) => {
    const stream = flacStream(sampleRate);
    return stream.seal(concatBytes([stream.push(pcm), stream.end()]));
  },
  start: async (sampleRate) => flacStream(sampleRate),
};
