/**
 * `fangyan read --voice VOICE_ID [--json] [TEXT]`: how the service reads a
 * text, for inspection. With no TEXT it reads one text per line from stdin
 * and answers one line per text.
 */

import { createInterface } from "node:readline";
import type { Lexicon } from "@fangyan/frontend";
import type { Command } from "commander";
import type { Config } from "../config/config.js";
import { loadCatalog } from "../speech/catalog.js";
import { isEspeakVoice } from "../speech/espeak/arguments.js";
import type { Voice } from "../speech/voices.js";
import { checkSsmlText } from "../ssml/check.js";
import { describeSsml, readSsmlForVoice } from "../ssml/read.js";
import { loadLexiconFile } from "./lexicon-file.js";
import { readForVoice, type SpeechReading } from "./reader.js";

interface ReadOptions {
  voice: string;
  json?: boolean;
}

function human(reading: SpeechReading, voice: Voice): string {
  return [
    `engine:       ${engineOf(voice)}`,
    `normalized:   ${reading.normalized}`,
    `syllables:    ${reading.syllables.join(" ")}`,
    `engine input: ${reading.engine_input}`,
    ...(reading.unread.length > 0 ? [`unread:       ${reading.unread.join(" ")} (not spoken)`] : []),
  ].join("\n");
}

function engineOf({ engine }: Voice): string {
  if (isEspeakVoice(engine)) return "espeak-ng (the front-end's phoneme markup)";
  if (engine.kind === "sherpa-onnx")
    return `sherpa-onnx model ${engine.model}, speaker ${engine.speaker} (normalised text, read by the model's own lexicon)`;
  return `HTTP ${engine.baseUrl} model ${engine.model}, voice ${engine.voice} (normalised text, read by the server)`;
}

export function registerReadCommand(program: Command, config: () => Config): void {
  program
    .command("read")
    .description(
      "show how a voice reads a text (or SSML, and what each element did): normalised text, syllables and engine input (stdin: one text per line)",
    )
    .requiredOption("--voice <id>", "voice id, as listed by GET /voices")
    .option("--json", "print one JSON object per text")
    .argument("[text...]", "the text; without it, texts are read from stdin, one per line")
    .action(async (words: string[], options: ReadOptions) => {
      const settings = config();
      const voice = loadCatalog(settings).voices.get(options.voice);
      if (!voice) throw new Error(`unknown voice "${options.voice}"; GET /voices lists the voices`);
      const lexicon: Lexicon | undefined = settings.lexiconFile ? loadLexiconFile(settings.lexiconFile) : undefined;
      const print = (text: string) => {
        const ssml = checkSsmlText(text);
        if ("error" in ssml) {
          // As POST /tts answers it (MISSING_PARAMETER); the other lines of stdin are still read.
          process.exitCode = 1;
          process.stdout.write(`${options.json ? JSON.stringify({ error: ssml.error }) : ssml.message}\n`);
          return;
        }
        if ("document" in ssml) {
          const reading = readSsmlForVoice(ssml.document, voice, lexicon);
          process.stdout.write(
            `${options.json ? JSON.stringify(reading) : [human(reading, voice), ...describeSsml(reading)].join("\n")}\n`,
          );
          return;
        }
        const { reading } = readForVoice(text, voice, lexicon);
        process.stdout.write(`${options.json ? JSON.stringify(reading) : human(reading, voice)}\n`);
      };
      if (words.length > 0) {
        print(words.join(" "));
        return;
      }
      for await (const line of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) print(line);
    });
}
