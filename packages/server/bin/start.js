#!/usr/bin/env node
// What `npm start` runs: `fangyan serve` with the memory settings of
// src/memory/launch.ts. A committed shim, like fangyan.js.
import "../dist/bin/start.js";
