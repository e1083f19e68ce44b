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
 * module and loading its files took about 190 ms a call; putting 32 MB of
 * memory back takes a few).
 */

import ESpeakNg, { type ESpeakNgModule, type WasmInstance, type WasmModule } from "espeak-ng";
import { inputPath, outputPath } from "./task.js";

interface WebAssemblyApi {
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => WasmInstance;
}
// Node's type definitions leave WebAssembly out (it comes with lib "dom").
const webAssembly = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

/** The exports of this build that a call needs (Emscripten's names). */
interface EspeakExports {
  memory: { buffer: ArrayBuffer };
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

export class EspeakInstance {
  /** False once a call trapped: the instance's state is then unknown and it must be replaced. */
  usable = true;
  private readonly initialMemory: Uint8Array;
  private readonly initialStack: number;
  private messages: string[] = [];

  private constructor(
    private readonly module: ESpeakNgModule,
    private readonly exports: EspeakExports,
  ) {
    const memory = new Uint8Array(exports.memory.buffer);
    // The memory past the files and data is zero; only the rest is kept.
    let end = memory.length;
    while (end > 0 && memory[end - 1] === 0) end--;
    this.initialMemory = memory.slice(0, end);
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

  /** Descriptors of files left open between calls (none; for tests). */
  openFiles(): number[] {
    return this.module.FS.streams.flatMap((stream) => (stream && stream.fd > 2 ? [stream.fd] : []));
  }

  private restore(): void {
    const memory = new Uint8Array(this.exports.memory.buffer);
    memory.set(this.initialMemory);
    memory.fill(0, this.initialMemory.length);
    this.exports.stackRestore(this.initialStack);
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
