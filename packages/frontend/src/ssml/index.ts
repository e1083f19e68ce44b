/** SSML: a document parsed and checked (parse.ts), then read for a voice's dialect into runs (plan.ts). */

export { isSsml, MAX_DEPTH, MAX_ELEMENTS, parseSsml } from "./parse.js";
export { planSsml, type SsmlPlan, type SsmlRun } from "./plan.js";
export type { Prosody, SsmlDocument, SsmlError, SsmlNote, SsmlParse } from "./types.js";
export { BREAK_STRENGTH_MS, MAX_BREAK_MS, MAX_TOTAL_BREAK_MS, PROSODY_RANGE } from "./values.js";
