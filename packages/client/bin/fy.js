#!/usr/bin/env node
// The `fy` command. A committed shim, so that npm can link the bin at install
// time, before the TypeScript build has produced dist/.
import "../dist/cli/main.js";
