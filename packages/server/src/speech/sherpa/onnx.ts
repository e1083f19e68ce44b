/**
 * The part of ONNX's protobuf schema (onnx/onnx.proto, field numbers as
 * published) that Fangyan reads and writes: a model's metadata and its graph's
 * inputs and outputs, to check a sherpa-onnx model before the runtime loads it
 * (sherpa-onnx ends the process on a missing metadata key), and enough of a
 * graph to write the test model. Fields not declared here are skipped when
 * reading, so a 100 MB model's weights are never decoded.
 */

import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import protobuf from "protobufjs";

const { Root } = protobuf;

const field = (id: number, type: string, rule?: "repeated") => (rule ? { id, type, rule } : { id, type });

const root = Root.fromJSON({
  nested: {
    onnx: {
      nested: {
        ModelProto: {
          fields: {
            ir_version: field(1, "int64"),
            producer_name: field(2, "string"),
            graph: field(7, "GraphProto"),
            opset_import: field(8, "OperatorSetIdProto", "repeated"),
            metadata_props: field(14, "StringStringEntryProto", "repeated"),
          },
        },
        // The same message read with only what a check needs: the weights (graph fields 1 and 5) are skipped.
        ModelSummary: {
          fields: {
            ir_version: field(1, "int64"),
            graph: field(7, "GraphSummary"),
            metadata_props: field(14, "StringStringEntryProto", "repeated"),
          },
        },
        GraphSummary: { fields: { input: field(11, "ValueInfoName", "repeated"), output: field(12, "ValueInfoName", "repeated") } },
        ValueInfoName: { fields: { name: field(1, "string") } },
        OperatorSetIdProto: { fields: { domain: field(1, "string"), version: field(2, "int64") } },
        StringStringEntryProto: { fields: { key: field(1, "string"), value: field(2, "string") } },
        GraphProto: {
          fields: {
            node: field(1, "NodeProto", "repeated"),
            name: field(2, "string"),
            initializer: field(5, "TensorProto", "repeated"),
            input: field(11, "ValueInfoProto", "repeated"),
            output: field(12, "ValueInfoProto", "repeated"),
          },
        },
        NodeProto: {
          fields: {
            input: field(1, "string", "repeated"),
            output: field(2, "string", "repeated"),
            name: field(3, "string"),
            op_type: field(4, "string"),
            attribute: field(5, "AttributeProto", "repeated"),
          },
        },
        AttributeProto: {
          fields: { name: field(1, "string"), i: field(3, "int64"), ints: field(8, "int64", "repeated"), type: field(20, "int32") },
        },
        TensorProto: {
          fields: {
            dims: field(1, "int64", "repeated"),
            data_type: field(2, "int32"),
            name: field(8, "string"),
            raw_data: field(9, "bytes"),
          },
        },
        ValueInfoProto: { fields: { name: field(1, "string"), type: field(2, "TypeProto") } },
        TypeProto: { fields: { tensor_type: field(1, "TypeProtoTensor") } },
        TypeProtoTensor: { fields: { elem_type: field(1, "int32"), shape: field(2, "TensorShapeProto") } },
        TensorShapeProto: { fields: { dim: field(1, "Dimension", "repeated") } },
        Dimension: { fields: { dim_value: field(1, "int64"), dim_param: field(2, "string") } },
      },
    },
  },
});

/** ONNX's element types used here (TensorProto.DataType). */
export const OnnxType = { float: 1, int64: 7 } as const;

/** An attribute's type (AttributeProto.AttributeType). */
export const AttributeType = { int: 2, ints: 7 } as const;

export interface OnnxDimension {
  dim_value?: number;
  dim_param?: string;
}

export interface OnnxValueInfo {
  name: string;
  type: { tensor_type: { elem_type: number; shape: { dim: OnnxDimension[] } } };
}

export interface OnnxNode {
  op_type: string;
  input: string[];
  output: string[];
  name?: string;
  attribute?: Array<{ name: string; type: number; i?: number; ints?: number[] }>;
}

export interface OnnxTensor {
  name: string;
  dims: number[];
  data_type: number;
  raw_data: Uint8Array;
}

export interface OnnxModel {
  ir_version: number;
  producer_name: string;
  opset_import: Array<{ domain: string; version: number }>;
  metadata_props: Array<{ key: string; value: string }>;
  graph: { name: string; node: OnnxNode[]; initializer: OnnxTensor[]; input: OnnxValueInfo[]; output: OnnxValueInfo[] };
}

const modelType = root.lookupType("onnx.ModelProto");
const summaryType = root.lookupType("onnx.ModelSummary");

export function encodeOnnxModel(model: OnnxModel): Uint8Array {
  return modelType.encode(modelType.fromObject(model)).finish();
}

/** What a model file says about itself: its metadata and the names of its graph's inputs and outputs. */
export interface OnnxSummary {
  metadata: Record<string, string>;
  inputs: string[];
  outputs: string[];
}

/** Throws on bytes that are not an ONNX model (a truncated or corrupt file). */
export function readOnnxSummary(bytes: Uint8Array): OnnxSummary {
  const decoded = summaryType.toObject(summaryType.decode(bytes), { longs: Number, defaults: true }) as {
    ir_version: number;
    metadata_props: Array<{ key: string; value: string }>;
    graph?: { input: Array<{ name: string }>; output: Array<{ name: string }> };
  };
  if (!decoded.ir_version || decoded.graph === undefined) throw new Error("not an ONNX model (no IR version or no graph)");
  const metadata: Record<string, string> = {};
  for (const { key, value } of decoded.metadata_props) metadata[key] = value;
  return {
    metadata,
    inputs: decoded.graph.input.map((input) => input.name),
    outputs: decoded.graph.output.map((output) => output.name),
  };
}

/**
 * The summary of a model file, read without loading the file: protobuf writes
 * a model's fields in order, its graph (the weights, up to hundreds of MB)
 * before its metadata, so the graph's nodes and initializers are skipped by
 * their lengths and only the small fields are read.
 */
export function readOnnxSummaryFile(path: string): OnnxSummary {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const wanted = { model: new Set([1, 14]), graph: new Set([11, 12]) };
    const top = collectFields(fd, 0, size, wanted.model, 7);
    const graph = top.nested;
    const parts: Uint8Array[] = [...top.fields];
    if (graph) {
      // Re-encode the graph's inputs and outputs as a graph of their own: field 7 of the summary.
      const inner = collectFields(fd, graph.start, graph.end, wanted.graph, undefined);
      const body = concat(inner.fields);
      parts.push(concat([tagBytes(7, 2), varint(body.length), body]));
    }
    return readOnnxSummary(concat(parts));
  } finally {
    closeSync(fd);
  }
}

interface Collected {
  /** The wanted fields, each with its tag, as raw bytes. */
  fields: Uint8Array[];
  /** Where the body of the `nested` field lies in the file. */
  nested?: { start: number; end: number };
}

function collectFields(fd: number, start: number, end: number, wanted: ReadonlySet<number>, nested: number | undefined): Collected {
  const out: Collected = { fields: [] };
  let at = start;
  const head = Buffer.alloc(20);
  while (at < end) {
    const got = readSync(fd, head, 0, Math.min(20, end - at), at);
    let offset = 0;
    const readVarint = () => {
      let value = 0;
      let scale = 1;
      for (;;) {
        if (offset >= got) throw new Error("a field header runs past the end of the file");
        const byte = head[offset++] ?? 0;
        value += (byte & 0x7f) * scale;
        if (byte < 0x80) return value;
        scale *= 128;
      }
    };
    const key = readVarint();
    const field = Math.floor(key / 8);
    const wire = key & 7;
    let length: number;
    if (wire === 0) {
      const before = offset;
      readVarint();
      length = offset - before;
      offset = before;
    } else if (wire === 2) length = readVarint();
    else if (wire === 1) length = 8;
    else if (wire === 5) length = 4;
    else throw new Error(`wire type ${wire} at byte ${at}: not a protobuf message`);
    const bodyStart = at + offset;
    const bodyEnd = bodyStart + length;
    if (bodyEnd > end) throw new Error(`field ${field} runs ${bodyEnd - end} bytes past its end (the file is cut short)`);
    if (field === nested && wire === 2) out.nested = { start: bodyStart, end: bodyEnd };
    else if (wanted.has(field)) {
      const bytes = Buffer.alloc(bodyEnd - at);
      readSync(fd, bytes, 0, bytes.length, at);
      out.fields.push(bytes);
    }
    at = bodyEnd;
  }
  return out;
}

function varint(value: number): Uint8Array {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 128) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Uint8Array.from(bytes);
}

function tagBytes(field: number, wire: number): Uint8Array {
  return varint(field * 8 + wire);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}
