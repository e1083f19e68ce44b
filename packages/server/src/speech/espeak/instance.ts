/**
 * One espeak-ng WebAssembly instance, created once and reused for every call
 * of a worker.
 *
 * The npm espeak-ng build is the command-line program: it exports main() and
 * no library calls, and main() leaves state behind (getopt's position, the
 * allocator, espeak's own globals). So the instance's memory is saved once,
 * right after start-up and before main() has ever run, and put back before
 * each call: every call then starts from the same state as a fresh instance,
 * and gives the same bytes, without the cost of one (instantiating the 18 MB
 * module and loading its files took about 190 ms a call; putting the memory
 * back takes about a millisecond).
 *
 * Of the 32 MB of memory, 17 MB are espeak-ng's data files, embedded in the
 * module and read in place, never written; the saved state leaves them out
 * (0.3 MB remain: stack, globals, the file table). The heap above them starts
 * as zeros, so only the part a call wrote is zeroed again.
 */

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import ESpeakNg, { type ESpeakNgModule, type WasmInstance, type WasmModule } from "espeak-ng";
import { withoutFiles } from "./slim.js";
import { inputPath, outputPath } from "./task.js";
import { type EspeakVariant, variantText } from "./variants.js";

interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => WasmInstance;
}
// Node's type definitions leave WebAssembly out (it comes with lib "dom").
const webAssembly = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

/**
 * espeak-ng's module, compiled once for the process: a compiled module can be
 * posted to worker threads, which then share its bytes and its code instead of
 * each compiling a copy. Functions compile lazily on first call, so this takes
 * about 10 ms.
 *
 * With `languages`, only those languages' dictionaries (and English's, which
 * espeak-ng uses for Latin letters) are kept in the module (slim.ts): 3.5 MB
 * instead of 18 MB, and as much less memory in every worker.
 */
export function compileEspeak(languages?: readonly string[]): WasmModule {
  const script = createRequire(import.meta.url).resolve("espeak-ng");
  const bytes = readFileSync(script.replace(/\.js$/, ".wasm"));
  if (languages === undefined) return new webAssembly.Module(bytes);
  const kept = new Set(["en", ...languages].map((language) => `${language}_dict`));
  return new webAssembly.Module(withoutFiles(bytes, (path) => !path.endsWith("_dict") || kept.has(path.slice(path.lastIndexOf("/") + 1))));
}

/** The exports of this build that a call needs (Emscripten's names). */
interface EspeakExports {
  memory: { buffer: ArrayBuffer };
  /** The table of embedded files: name, length and address of each, ended by a zero. */
  __emscripten_embedded_file_data: { value: number };
  __main_argc_argv(argc: number, argv: number): number;
  stackSave(): number;
  stackRestore(pointer: number): void;
  stackAlloc(bytes: number): number;
}

export interface EspeakRun {
  /** main()'s return value or exit() status; undefined if it trapped. */
  status: number | undefined;
  wav: Uint8Array | undefined;
  errors: string;
}

/** Thrown through main() by Emscripten's exit(); anything else is a trap. */
class Exited {
  constructor(readonly status: number) {}
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** espeak-ng's voice variants in the module's file system (its espeak-ng-data, where this build puts it). */
export const variantsPath = "/usr/local/share/espeak-ng-data/voices/!v";
/** What espeak-ng's clock reads (see create). */
const FIXED_CLOCK_MS = 0;
/** The block size in which the heap is checked for bytes a call wrote. */
const BLOCK = 64 * 1024;
const zeros = new Uint8Array(BLOCK);

/** A piece of memory as it was before main() first ran. */
interface Saved {
  offset: number;
  bytes: Uint8Array;
}

/** The address ranges of the embedded data files, sorted and merged. */
function embeddedFiles(exports: EspeakExports): Array<[number, number]> {
  const table = new Uint32Array(exports.memory.buffer);
  const ranges: Array<[number, number]> = [];
  for (let entry = exports.__emscripten_embedded_file_data.value >> 2; table[entry] !== 0; entry += 3) {
    const length = table[entry + 1] ?? 0;
    const address = table[entry + 2] ?? 0;
    ranges.push([address, address + length]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }
  return merged;
}

/** Everything below `end` that is not a data file. */
function saveState(memory: Uint8Array, files: Array<[number, number]>, end: number): Saved[] {
  const saved: Saved[] = [];
  let from = 0;
  for (const [start, stop] of [...files, [end, end] as [number, number]]) {
    if (start > from) saved.push({ offset: from, bytes: memory.slice(from, Math.min(start, end)) });
    from = Math.max(from, stop);
  }
  return saved;
}

export class EspeakInstance {
  /** False once a call trapped: the instance's state is then unknown and it must be replaced. */
  usable = true;
  private readonly saved: Saved[];
  /** Where the heap's zeros began before the first call. */
  private readonly heapStart: number;
  private readonly initialStack: number;
  private messages: string[] = [];
  /** The variants of ours already in the file system. */
  private readonly variants = new Set<string>();

  private constructor(
    private readonly module: ESpeakNgModule,
    private readonly exports: EspeakExports,
  ) {
    const memory = new Uint8Array(exports.memory.buffer);
    let end = memory.length;
    while (end > 0 && memory[end - 1] === 0) end--;
    this.heapStart = end;
    this.saved = saveState(memory, embeddedFiles(exports), end);
    this.initialStack = exports.stackSave();
  }

  static async create(compiled: WasmModule): Promise<EspeakInstance> {
    let instance: WasmInstance | undefined;
    let self: EspeakInstance | undefined;
    const module = await ESpeakNg({
      noInitialRun: true,
      thisProgram: "espeak-ng",
      print: () => {},
      printErr: (line) => self?.messages.push(line),
      // Emscripten's exit(): report the status through main() instead of ending the thread.
      quit: (status) => {
        throw new Exited(status);
      },
      // Synchronous, so an instantiation error rejects ESpeakNg() instead of leaving it pending.
      instantiateWasm: (imports, receiveInstance) => {
        // espeak-ng seeds the random noise of some voices (breathy variants) from the time
        // of day, so the same text sounded a little different from one second to the next.
        // A fixed clock makes every call deterministic: the same request always gives the
        // same bytes, as a cached answer does. Nothing else in a synthesis reads the date.
        const env = imports.env;
        if (env) env.emscripten_date_now = () => FIXED_CLOCK_MS;
        instance = new webAssembly.Instance(compiled, imports);
        receiveInstance(instance, compiled);
        return instance.exports;
      },
    });
    if (!instance) throw new Error("espeak-ng did not instantiate");
    self = new EspeakInstance(module, instance.exports as EspeakExports);
    return self;
  }

  /** Runs espeak-ng's main() with `args` (argv after the program name) on `text` as the input file. */
  run(args: string[], text: string): EspeakRun {
    this.restore();
    this.messages = [];
    const fs = this.module.FS;
    fs.writeFile(inputPath, encoder.encode(text));
    let status: number | undefined;
    try {
      status = this.exports.__main_argc_argv(args.length + 1, this.argv(["espeak-ng", ...args]));
    } catch (error) {
      if (!(error instanceof Exited)) {
        this.usable = false;
        this.messages.push(String(error));
      } else status = error.status;
    }
    let wav: Uint8Array | undefined;
    try {
      wav = fs.readFile(outputPath);
    } catch {
      wav = undefined;
    }
    this.cleanUp();
    return { status, wav, errors: this.messages.join("\n") };
  }

  /**
   * Writes a variant of ours (variants.ts) beside espeak-ng's, once per
   * instance; false when the variant it is made from does not exist. The file
   * system lives in JavaScript, outside the memory that restore() puts back,
   * so the file stays for every later call.
   */
  addVariant(variant: EspeakVariant): boolean {
    if (this.variants.has(variant.name)) return true;
    const fs = this.module.FS;
    let stock = "";
    if (variant.from !== undefined) {
      try {
        stock = decoder.decode(fs.readFile(`${variantsPath}/${variant.from}`));
      } catch {
        return false;
      }
    }
    fs.writeFile(`${variantsPath}/${variant.name}`, encoder.encode(variantText(stock, variant.pitchHz)));
    this.variants.add(variant.name);
    return true;
  }

  /** Descriptors of files left open between calls (none; for tests). */
  openFiles(): number[] {
    return this.module.FS.streams.flatMap((stream) => (stream && stream.fd > 2 ? [stream.fd] : []));
  }

  private restore(): void {
    const memory = new Uint8Array(this.exports.memory.buffer);
    for (const { offset, bytes } of this.saved) memory.set(bytes, offset);
    memory.fill(0, this.heapStart, this.writtenEnd(memory));
    this.exports.stackRestore(this.initialStack);
  }

  /** The end of the last block of the heap holding anything but zeros. */
  private writtenEnd(memory: Uint8Array): number {
    let end = memory.length;
    while (end > this.heapStart) {
      const start = Math.max(this.heapStart, end - BLOCK);
      if (Buffer.compare(memory.subarray(start, end), zeros.subarray(0, end - start)) !== 0) break;
      end = start;
    }
    return end;
  }

  /** argv on the module's stack, as Emscripten's own callMain lays it out. */
  private argv(args: string[]): number {
    const pointers = args.map((arg) => {
      const bytes = encoder.encode(`${arg}\0`);
      const pointer = this.exports.stackAlloc(bytes.length);
      new Uint8Array(this.exports.memory.buffer).set(bytes, pointer);
      return pointer;
    });
    const argv = this.exports.stackAlloc(4 * (pointers.length + 1));
    const table = new Uint32Array(this.exports.memory.buffer, argv, pointers.length + 1);
    table.set(pointers);
    table[pointers.length] = 0;
    return argv;
  }

  /** The files of this call, and any file an exit() left open, are gone before the next. */
  private cleanUp(): void {
    const fs = this.module.FS;
    for (const stream of fs.streams) if (stream && stream.fd > 2) fs.close(stream);
    for (const path of [inputPath, outputPath]) {
      try {
        fs.unlink(path);
      } catch {
        // not written (a failed call)
      }
    }
  }
}
