import { defineConfig } from "vite";

// The server sends a strict Content-Security-Policy (no inline scripts or styles, no eval),
// so the build must emit only external files: no inlined assets, no inline preload polyfill.
export default defineConfig({
  base: "/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    cssCodeSplit: false,
    reportCompressedSize: false,
  },
});
