// The npm espeak-ng build ships no types. This declares the part of its
// Emscripten module that the worker uses; the names are Emscripten's.
declare module "espeak-ng" {
  /** A compiled WebAssembly.Module, kept opaque because Node's types do not declare WebAssembly. */
  export interface WasmModule {
    readonly __wasmModule: never;
  }
  export interface WasmInstance {
    readonly exports: object;
  }
  export type WasmImports = Record<string, Record<string, unknown>>;

  export interface ESpeakNgStream {
    fd: number;
  }

  export interface ESpeakNgFileSystem {
    readFile(path: string): Uint8Array;
    writeFile(path: string, data: Uint8Array): void;
    unlink(path: string): void;
    /** Open files by descriptor; closed ones are null. */
    streams: Array<ESpeakNgStream | null | undefined>;
    close(stream: ESpeakNgStream): void;
  }

  export interface ESpeakNgModule {
    FS: ESpeakNgFileSystem;
  }

  export interface ESpeakNgOptions {
    /** argv after the program name; main() runs with them once the module is ready. */
    arguments?: string[];
    /** Do not run main() when the module is ready. */
    noInitialRun?: boolean;
    /** argv[0], which espeak prints in its messages. */
    thisProgram?: string;
    print?: (line: string) => void;
    printErr?: (line: string) => void;
    /** Runs before main(), with the module's file system ready for input files. */
    preRun?: Array<(module: ESpeakNgModule) => void>;
    /** Called on exit() and when main() returns; Emscripten expects it to throw `toThrow`. */
    quit?: (status: number, toThrow: unknown) => never;
    instantiateWasm?: (imports: WasmImports, receiveInstance: (instance: WasmInstance, module: WasmModule) => void) => object;
  }

  /** Instantiates the module and, unless `noInitialRun`, runs espeak-ng's main() once with `arguments`. */
  function ESpeakNg(options: ESpeakNgOptions): Promise<ESpeakNgModule>;
  export default ESpeakNg;
}
