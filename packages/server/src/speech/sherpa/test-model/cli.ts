#!/usr/bin/env node
/** `npm run test-model -- DIR`: writes the test VITS model folder (build.ts) to DIR. */

import path from "node:path";
import { writeTestModel } from "./build.js";

const dir = process.argv[2];
if (!dir) {
  process.stderr.write("usage: npm run test-model -- DIR\n");
  process.exit(2);
}
// npm runs scripts from the repository root: a relative DIR is taken from there.
const target = path.resolve(dir);
await writeTestModel(target);
process.stdout.write(`Wrote the sherpa-onnx test model (VITS: model.onnx, tokens.txt, lexicon.txt) to ${target}\n`);
