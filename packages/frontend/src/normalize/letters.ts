/**
 * Latin letters are spelt out, one letter at a time, by the names Chinese
 * speakers give them (GDP -> ji4 di4 pi4, HK: zi1 di1 pi1). The syllables are
 * the nearest the dialect's own sounds come; a word the operator wants read
 * whole ("iPhone") goes in the lexicon.
 */

import type { Dialect } from "../types.js";
import { type Phrase, phrase } from "./vocabulary.js";

const MANDARIN =
  "A ei1|B bi4|C xi1|D di4|E yi4|F ai2 fu5|G ji4|H ei1 qi1|I ai4|J zhei4|K kai4|L ai2 le5|M ai2 mu5|N en1|O ou1|P pi4|Q kiu1|R a1 er5|S ai2 si1|T ti4|U you1|V wei1|W da2 bu5 liu5|X ai2 ke4 si1|Y wai4|Z zei4";
const CANTONESE =
  "A ei1|B bi1|C si1|D di1|E ji1|F e1 fu4|G zi1|H ei1 cyu4|I aai1|J zei1|K kei1|L e1 lou4|M em1|N en1|O ou1|P pi1|Q kiu1|R aa1 lou4|S e1 si4|T ti1|U jiu1|V wi1|W daa1 bi1 liu1|X ek1 si4|Y waai1|Z zet6";

function table(spec: string): ReadonlyMap<string, string> {
  return new Map(
    spec.split("|").map((entry) => {
      const space = entry.indexOf(" ");
      return [entry.slice(0, space), entry.slice(space + 1)] as const;
    }),
  );
}

const TABLES: Record<Dialect, ReadonlyMap<string, string>> = { cmn: table(MANDARIN), yue: table(CANTONESE) };

/** The letter as written, with its name's syllables. */
export function letterName(letter: string, dialect: Dialect): Phrase | undefined {
  const reading = TABLES[dialect].get(letter.toUpperCase());
  return reading === undefined ? undefined : phrase(letter, reading);
}
