#!/usr/bin/env node
// The `fangyan` command. A committed shim, so that npm can link the bin at
// install time, before the TypeScript build has produced dist/.
import "../dist/bin/fangyan.js";
