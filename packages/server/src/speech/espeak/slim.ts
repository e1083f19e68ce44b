/**
 * espeak-ng's module without the dictionaries no voice of ours reads.
 *
 * The npm build embeds all of espeak-ng-data (445 files, 17 MB) in the
 * module's data segment, and every instance copies that segment into its own
 * memory, where the pages stay resident: 17 MB per worker thread, of which
 * the dictionaries of 111 other languages are 14 MB (Russian alone is 8 MB).
 * This rewrites the data section so that those dictionaries' bytes are left
 * out: their files still exist in the module's file system, as zeros that
 * nothing reads, and their pages are never touched. Everything else (phoneme
 * tables, voices, language definitions) is kept.
 *
 * The format is the WebAssembly binary format; only the data section
 * changes. A module this code does not recognise is returned unchanged.
 */

interface Segment {
  /** Memory address of the segment's first byte. */
  offset: number;
  bytes: Uint8Array;
}

class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public at = 0,
  ) {}

  byte(): number {
    const value = this.bytes[this.at++];
    if (value === undefined) throw new RangeError("unexpected end of module");
    return value;
  }

  /** An unsigned LEB128 integer (u32). */
  u32(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = this.byte();
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7;
    }
  }

  /** A signed LEB128 integer (i32). */
  i32(): number {
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = this.byte();
      result |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return shift < 32 && byte & 0x40 ? result | (-1 << shift) : result;
  }

  take(length: number): Uint8Array {
    const slice = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    return slice;
  }
}

function u32Leb(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
  return out;
}

function i32Leb(value: number): number[] {
  const out: number[] = [];
  let rest = value | 0;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    const done = (rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

/** A constant expression `i32.const N; end`, the only kind this code accepts. */
function constI32(reader: Reader): number {
  if (reader.byte() !== 0x41) throw new Error("not an i32.const");
  const value = reader.i32();
  if (reader.byte() !== 0x0b) throw new Error("not a single-instruction expression");
  return value;
}

interface Section {
  id: number;
  /** Where the section's id byte is. */
  header: number;
  /** Where its payload starts and ends. */
  start: number;
  end: number;
}

function sections(bytes: Uint8Array): Section[] {
  const reader = new Reader(bytes, 8);
  const found: Section[] = [];
  while (reader.at < bytes.length) {
    const header = reader.at;
    const id = reader.byte();
    const size = reader.u32();
    found.push({ id, header, start: reader.at, end: reader.at + size });
    reader.at += size;
  }
  return found;
}

/** The value of an exported, constant i32 global (none is imported in this build). */
function exportedGlobal(bytes: Uint8Array, all: Section[], name: string): number | undefined {
  const imports = all.find((s) => s.id === 2);
  if (imports) {
    const reader = new Reader(bytes, imports.start);
    for (let n = reader.u32(); n > 0; n--) {
      reader.take(reader.u32());
      reader.take(reader.u32());
      const kind = reader.byte();
      if (kind !== 0) return undefined; // only imported functions are understood here
      reader.u32();
    }
  }
  const exports = all.find((s) => s.id === 7);
  const globals = all.find((s) => s.id === 6);
  if (!exports || !globals) return undefined;
  let index: number | undefined;
  const reader = new Reader(bytes, exports.start);
  for (let n = reader.u32(); n > 0; n--) {
    const exportName = new TextDecoder().decode(reader.take(reader.u32()));
    const kind = reader.byte();
    const target = reader.u32();
    if (exportName === name && kind === 3) index = target;
  }
  if (index === undefined) return undefined;
  const globalReader = new Reader(bytes, globals.start);
  const count = globalReader.u32();
  for (let i = 0; i < count; i++) {
    globalReader.take(2); // value type, mutability
    if (i === index) return constI32(globalReader);
    // skip any other constant expression
    while (globalReader.byte() !== 0x0b);
  }
  return undefined;
}

/** Leaves out the bytes of every embedded file for which `keep(path)` is false. */
export function withoutFiles(module: Uint8Array, keep: (path: string) => boolean): Uint8Array {
  try {
    return rewrite(module, keep) ?? module;
  } catch (error) {
    // Still correct, only larger: say so, with the cause, rather than use 14 MB more per thread unseen.
    const cause = error instanceof Error ? error.message : String(error);
    process.emitWarning(`espeak-ng's module could not be slimmed (${cause}); every synthesis thread uses the whole module`, {
      code: "FANGYAN_ESPEAK_NOT_SLIMMED",
    });
    return module;
  }
}

function rewrite(module: Uint8Array, keep: (path: string) => boolean): Uint8Array | undefined {
  const all = sections(module);
  const data = all.find((s) => s.id === 11);
  const table = exportedGlobal(module, all, "__emscripten_embedded_file_data");
  if (!data || table === undefined) return undefined;

  const segments: Segment[] = [];
  const reader = new Reader(module, data.start);
  for (let n = reader.u32(); n > 0; n--) {
    if (reader.u32() !== 0) return undefined; // passive or other memories: indices would shift
    const offset = constI32(reader);
    segments.push({ offset, bytes: reader.take(reader.u32()) });
  }
  const at = (address: number): DataView | undefined => {
    const segment = segments.find((s) => address >= s.offset && address + 4 <= s.offset + s.bytes.length);
    if (!segment) return undefined;
    return new DataView(segment.bytes.buffer, segment.bytes.byteOffset + address - segment.offset);
  };
  const text = (address: number): string => {
    const segment = segments.find((s) => address >= s.offset && address < s.offset + s.bytes.length);
    if (!segment) return "";
    const from = address - segment.offset;
    const end = segment.bytes.indexOf(0, from);
    return new TextDecoder().decode(segment.bytes.subarray(from, end < 0 ? undefined : end));
  };

  const dropped: Array<[number, number]> = [];
  for (let entry = table; ; entry += 12) {
    const view = at(entry);
    const namePointer = view?.getUint32(0, true) ?? 0;
    if (!view || namePointer === 0) break;
    const length = view.getUint32(4, true);
    const content = view.getUint32(8, true);
    if (!keep(text(namePointer))) dropped.push([content, content + length]);
  }
  if (dropped.length === 0) return undefined;
  dropped.sort((a, b) => a[0] - b[0]);

  // Each segment, cut around the dropped ranges.
  const pieces: Segment[] = [];
  for (const segment of segments) {
    let from = segment.offset;
    const end = segment.offset + segment.bytes.length;
    for (const [start, stop] of dropped) {
      if (stop <= from || start >= end) continue;
      if (start > from) pieces.push({ offset: from, bytes: segment.bytes.subarray(from - segment.offset, start - segment.offset) });
      from = Math.max(from, stop);
    }
    if (from < end) pieces.push({ offset: from, bytes: segment.bytes.subarray(from - segment.offset) });
  }

  // The new data section: one active segment per piece (flags 0, i32.const offset, bytes).
  const payload: Uint8Array[] = [Uint8Array.from(u32Leb(pieces.length))];
  for (const piece of pieces) {
    payload.push(Uint8Array.from([0, 0x41, ...i32Leb(piece.offset), 0x0b, ...u32Leb(piece.bytes.length)]), piece.bytes);
  }
  const payloadLength = payload.reduce((sum, part) => sum + part.length, 0);

  const out: Uint8Array[] = [module.subarray(0, 8)];
  for (const section of all) {
    if (section.id === 11) {
      out.push(Uint8Array.from([11, ...u32Leb(payloadLength)]), ...payload);
    } else if (section.id === 12) {
      // The data count section, when there is one, must agree with the new count.
      const count = u32Leb(pieces.length);
      out.push(Uint8Array.from([12, ...u32Leb(count.length), ...count]));
    } else {
      out.push(module.subarray(section.header, section.end));
    }
  }
  const total = out.reduce((sum, part) => sum + part.length, 0);
  const result = new Uint8Array(total);
  let offset = 0;
  for (const part of out) {
    result.set(part, offset);
    offset += part.length;
  }
  return result;
}
