/** Context rules for Cantonese polyphones that a word list cannot cover. */

import type { Unit } from "../types.js";

export function applyCantoneseRules(units: readonly Unit[]): Unit[] {
  return [...units];
}
