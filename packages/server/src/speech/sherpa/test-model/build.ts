/**
 * A small but real sherpa-onnx VITS model, written from scratch for tests and
 * the bench: it follows the contract sherpa-onnx's VITS code reads (metadata
 * sample_rate, n_speakers, language, comment, punctuation; inputs x,
 * x_length, noise_scale, length_scale, noise_scale_w, sid; output y), and its
 * audio depends on its input: each token is a row of a waveform table (a tone
 * of its own pitch, 0.1 s), gathered in order and scaled by the speaker's
 * gain. A lexicon maps every CJK ideograph and Latin letter to one of 64
 * tone tokens; punctuation is silence, so sentences end in a pause. One
 * ideograph, 默 ("silent"), is read as the pause token, so that a test can
 * give the model a part that it speaks as silence alone.
 */

import fs from "node:fs/promises";
import path from "node:path";
import { AttributeType, encodeOnnxModel, OnnxType, type OnnxValueInfo } from "../onnx.js";

export const TEST_MODEL = {
  sampleRate: 16_000,
  /** Samples per token: every token, syllable or pause, lasts 0.1 s. */
  tokenSamples: 1_600,
  speakers: 2,
  toneTokens: 64,
  punctuation: ["，", "。", "！", "？", "、", "；", "：", ",", ".", "!", "?", ";", ":"],
} as const;

/** The ideograph the test model reads as a pause. */
export const SILENT_CHAR = "默";

/** The token ids sherpa-onnx's lexicon front-end gives a text: one per ideograph or letter, one per punctuation mark. */
export function testModelTokenCount(text: string): number {
  let count = 0;
  for (const char of text) {
    if ((TEST_MODEL.punctuation as readonly string[]).includes(char) || isSpoken(char)) count++;
  }
  return count;
}

function isSpoken(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (code >= 0x4e00 && code <= 0x9fff) || /^[a-z]$/i.test(char);
}

function toneOf(char: string): number {
  return (char.toLowerCase().codePointAt(0) ?? 0) % TEST_MODEL.toneTokens;
}

export async function writeTestModel(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const { punctuation, toneTokens } = TEST_MODEL;
  // Id 0 is the pause; ids 1..64 the tones; then one id per punctuation mark, each a pause too.
  const tokens = ["_ 0", ...Array.from({ length: toneTokens }, (_, k) => `t${k} ${k + 1}`)];
  punctuation.forEach((mark, i) => {
    tokens.push(`${mark} ${toneTokens + 1 + i}`);
  });
  const lexicon: string[] = [];
  for (let code = 0x4e00; code <= 0x9fff; code++) {
    const char = String.fromCodePoint(code);
    lexicon.push(char === SILENT_CHAR ? `${char} _` : `${char} t${toneOf(char)}`);
  }
  for (const letter of "abcdefghijklmnopqrstuvwxyz") lexicon.push(`${letter} t${toneOf(letter)}`);
  await fs.writeFile(path.join(dir, "tokens.txt"), `${tokens.join("\n")}\n`);
  await fs.writeFile(path.join(dir, "lexicon.txt"), `${lexicon.join("\n")}\n`);
  await fs.writeFile(path.join(dir, "model.onnx"), testModelBytes());
}

function waveformTable(): Float32Array {
  const { sampleRate, tokenSamples, toneTokens, punctuation } = TEST_MODEL;
  const rows = 1 + toneTokens + punctuation.length;
  const table = new Float32Array(rows * tokenSamples);
  for (let k = 0; k < toneTokens; k++) {
    const frequency = 180 + 12 * k;
    const row = (k + 1) * tokenSamples;
    for (let i = 0; i < tokenSamples; i++) {
      // A Hann envelope: each tone starts and ends at zero, so tones join without clicks.
      const envelope = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (tokenSamples - 1));
      table[row + i] = 0.4 * envelope * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
    }
  }
  return table;
}

const scalar = (name: string, elemType: number): OnnxValueInfo => ({
  name,
  type: { tensor_type: { elem_type: elemType, shape: { dim: [{ dim_value: 1 }] } } },
});

export function testModelBytes(): Uint8Array {
  const { sampleRate, tokenSamples, speakers, punctuation } = TEST_MODEL;
  const table = waveformTable();
  const gains = new Float32Array([1, 0.5]);
  const shape = new BigInt64Array([1n, 1n, -1n]);
  const bytes = (array: Float32Array | BigInt64Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  return encodeOnnxModel({
    ir_version: 8,
    producer_name: "fangyan test-model",
    opset_import: [{ domain: "", version: 13 }],
    metadata_props: Object.entries({
      model_type: "vits",
      comment: "fangyan test model: a waveform table gathered per token (not a trained voice)",
      language: "Chinese",
      sample_rate: String(sampleRate),
      n_speakers: String(speakers),
      add_blank: "0",
      punctuation: punctuation.join(" "),
      licence: "CC0-1.0",
    }).map(([key, value]) => ({ key, value })),
    graph: {
      name: "fangyan-test-vits",
      input: [
        { name: "x", type: { tensor_type: { elem_type: OnnxType.int64, shape: { dim: [{ dim_value: 1 }, { dim_param: "tokens" }] } } } },
        scalar("x_length", OnnxType.int64),
        scalar("noise_scale", OnnxType.float),
        scalar("length_scale", OnnxType.float),
        scalar("noise_scale_w", OnnxType.float),
        scalar("sid", OnnxType.int64),
      ],
      output: [
        {
          name: "y",
          type: {
            tensor_type: { elem_type: OnnxType.float, shape: { dim: [{ dim_value: 1 }, { dim_value: 1 }, { dim_param: "samples" }] } },
          },
        },
      ],
      initializer: [
        { name: "waveforms", dims: [table.length / tokenSamples, tokenSamples], data_type: OnnxType.float, raw_data: bytes(table) },
        { name: "gains", dims: [speakers], data_type: OnnxType.float, raw_data: bytes(gains) },
        { name: "shape", dims: [3], data_type: OnnxType.int64, raw_data: bytes(shape) },
      ],
      node: [
        { op_type: "Gather", input: ["waveforms", "x"], output: ["rows"], attribute: [{ name: "axis", type: AttributeType.int, i: 0 }] },
        { op_type: "Gather", input: ["gains", "sid"], output: ["gain"], attribute: [{ name: "axis", type: AttributeType.int, i: 0 }] },
        { op_type: "Mul", input: ["rows", "gain"], output: ["scaled"] },
        { op_type: "Reshape", input: ["scaled", "shape"], output: ["y"] },
      ],
    },
  });
}
