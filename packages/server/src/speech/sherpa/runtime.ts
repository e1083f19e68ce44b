import { createRequire } from "node:module";

type SherpaOnnx = typeof import("sherpa-onnx-node");

/**
 * sherpa-onnx's native runtime, loaded on first use: a server whose voices
 * are all espeak-ng or HTTP never loads its 32 MB of libraries. The package
 * is CommonJS without named exports for ESM, hence require.
 */
export function loadSherpa(): SherpaOnnx {
  return createRequire(import.meta.url)("sherpa-onnx-node") as SherpaOnnx;
}

export function sherpaVersion(): string {
  const manifest = createRequire(import.meta.url)("sherpa-onnx-node/package.json") as { version?: unknown };
  return typeof manifest.version === "string" ? manifest.version : "unknown";
}
