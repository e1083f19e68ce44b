/**
 * Ogg Opus (RFC 7845), mono, encoded by libopus through @evan/opus (its
 * prebuilt native addon for Linux and macOS on x64 and arm64 and for Windows
 * x64, its WebAssembly build elsewhere). Opus codes 48 kHz; the engine's PCM is
 * resampled to it, so that a 44.1 kHz neural voice keeps its top octave and the
 * decoder (which always plays at 48 kHz) need not resample again. 32 kbit/s VBR,
 * two thirds of the MP3's 48 kbit/s, with a codec made for speech at such rates.
 */

import { randomInt } from "node:crypto";
import { Encoder } from "@evan/opus";
import { AUDIO_FORMATS } from "@fangyan/protocol";
import { type AudioFormat, concatBytes, type StreamEncoder } from "./format.js";
import { OggWriter, pageFlags, segmentsOf } from "./ogg.js";
import { Resampler } from "./resample.js";

export const opusSampleRate = 48_000;
export const opusBitrate = 32_000;
/** 20 ms, the frame Opus is tuned for. */
const frameSamples = 960;
const getLookahead = 4027; // OPUS_GET_LOOKAHEAD_REQUEST
/** Pages of at most about one second, so a stream reaches a listener in pieces. */
const packetsPerPage = 50;

function opusHead(preSkip: number, inputRate: number): Uint8Array {
  const head = new Uint8Array(19);
  const view = new DataView(head.buffer);
  head.set(new TextEncoder().encode("OpusHead"));
  head[8] = 1; // version
  head[9] = 1; // channels
  view.setUint16(10, preSkip, true);
  view.setUint32(12, inputRate, true);
  view.setInt16(16, 0, true); // output gain
  head[18] = 0; // mapping family: mono/stereo
  return head;
}

function opusTags(): Uint8Array {
  const vendor = new TextEncoder().encode("Fangyan (libopus)");
  const tags = new Uint8Array(8 + 4 + vendor.length + 4);
  const view = new DataView(tags.buffer);
  tags.set(new TextEncoder().encode("OpusTags"));
  view.setUint32(8, vendor.length, true);
  tags.set(vendor, 12);
  view.setUint32(12 + vendor.length, 0, true); // no user comments
  return tags;
}

class OpusStream implements StreamEncoder {
  readonly #encoder = new Encoder({ channels: 1, sample_rate: opusSampleRate, application: "audio" });
  readonly #ogg = new OggWriter(randomInt(0, 2 ** 32 - 1));
  readonly #resampler: Resampler | undefined;
  readonly #preSkip: number;
  #header: Uint8Array | undefined;
  /** Resampled samples not yet making a whole frame. */
  #pending = new Int16Array(0);
  /** Samples of real audio at 48 kHz, and frames encoded. */
  #samples = 0;
  #frames = 0;

  constructor(sampleRate: number) {
    this.#encoder.bitrate = opusBitrate;
    this.#encoder.signal = "voice";
    this.#encoder.complexity = 10;
    this.#preSkip = this.#encoder.ctl(getLookahead);
    this.#resampler = sampleRate === opusSampleRate ? undefined : new Resampler(sampleRate, opusSampleRate);
    this.#header = concatBytes([
      this.#ogg.page([opusHead(this.#preSkip, sampleRate)], 0, pageFlags.first),
      this.#ogg.page([opusTags()], 0, 0),
    ]);
  }

  push(pcm: Int16Array): Uint8Array {
    const resampled = this.#resampler ? this.#resampler.push(pcm) : pcm;
    this.#samples += resampled.length;
    return this.#pages(this.#frameUp(resampled, false), false);
  }

  end(): Uint8Array {
    const rest = this.#resampler ? this.#resampler.end() : new Int16Array(0);
    this.#samples += rest.length;
    return this.#pages(this.#frameUp(rest, true), true);
  }

  /** Encodes every whole frame; at the end, pads with silence past the encoder's lookahead. */
  #frameUp(pcm: Int16Array, final: boolean): Uint8Array[] {
    let all = new Int16Array(this.#pending.length + pcm.length);
    all.set(this.#pending);
    all.set(pcm, this.#pending.length);
    if (final) {
      const needed = Math.ceil((this.#samples + this.#preSkip) / frameSamples) - this.#frames;
      const padded = new Int16Array(Math.max(0, needed) * frameSamples);
      padded.set(all.subarray(0, Math.min(all.length, padded.length)));
      all = padded;
    }
    const packets: Uint8Array[] = [];
    let offset = 0;
    for (; offset + frameSamples <= all.length; offset += frameSamples) {
      packets.push(this.#encoder.encode(all.subarray(offset, offset + frameSamples)).slice());
      this.#frames++;
    }
    this.#pending = all.slice(offset);
    return packets;
  }

  #pages(packets: Uint8Array[], final: boolean): Uint8Array {
    const out: Uint8Array[] = [];
    if (this.#header) {
      out.push(this.#header);
      this.#header = undefined;
    }
    let done = this.#frames - packets.length;
    for (let start = 0; start < packets.length || (final && start === 0); ) {
      const page: Uint8Array[] = [];
      let segments = 0;
      while (start < packets.length && page.length < packetsPerPage) {
        const packet = packets[start];
        if (packet === undefined || segments + segmentsOf(packet) > 255) break;
        page.push(packet);
        segments += segmentsOf(packet);
        start++;
      }
      done += page.length;
      const last = final && start >= packets.length;
      // The last page's granule trims the padding: decoders stop at exactly the input's length.
      const granule = last ? this.#preSkip + this.#samples : done * frameSamples;
      out.push(this.#ogg.page(page, granule, last ? pageFlags.last : 0));
      if (last) break;
    }
    return concatBytes(out);
  }
}

export const opusFormat: AudioFormat = {
  name: "opus",
  ...AUDIO_FORMATS.opus,
  outputSampleRate: () => opusSampleRate,
  encode: async (pcm, sampleRate) => {
    const stream = new OpusStream(sampleRate);
    return concatBytes([stream.push(pcm), stream.end()]);
  },
  start: async (sampleRate) => new OpusStream(sampleRate),
};
