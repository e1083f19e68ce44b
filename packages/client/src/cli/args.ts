import { type ParseArgsConfig, parseArgs } from "node:util";
import { UsageError } from "./exit-codes.js";

export const COMMANDS = ["say", "voices", "account"] as const;
export type Command = (typeof COMMANDS)[number];

const common = {
  json: { type: "boolean" },
  "base-url": { type: "string" },
  "max-retries": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const sayOptions = {
  ...common,
  voice: { type: "string", short: "v" },
  output: { type: "string", short: "o" },
  format: { type: "string" },
  file: { type: "string", short: "f" },
  speed: { type: "string" },
  pitch: { type: "string" },
  volume: { type: "string" },
  srt: { type: "string" },
  vtt: { type: "string" },
  ssml: { type: "boolean" },
} as const;

export interface CommonArgs {
  json: boolean;
  baseUrl: string | undefined;
  maxRetries: number | undefined;
  help: boolean;
}

export interface SayArgs extends CommonArgs {
  words: string[];
  voice: string | undefined;
  output: string | undefined;
  /** --format: the audio format, over the output file's extension. Checked where the output is chosen. */
  format: string | undefined;
  file: string | undefined;
  speed: number | undefined;
  pitch: number | undefined;
  volume: number | undefined;
  /** Where to write the subtitles; either asks the service for timings. */
  srt: string | undefined;
  vtt: string | undefined;
  /** The text is SSML (wrapped in <speak> when it does not start with it). */
  ssml: boolean;
}

function parse<O extends NonNullable<ParseArgsConfig["options"]>>(command: string, args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // util.parseArgs's own advice about "--" is long; the option's name is what matters.
    const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1];
    const reason = unknown ? `Unknown option ${unknown}` : (message.split(/\.\s/)[0] ?? message).replace(/\.$/, "");
    throw new UsageError(`${reason}; see \`fy ${command} --help\``);
  }
}

function number(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed)) throw new UsageError(`--${name} takes a number, like --${name} 1.2; got "${value}"`);
  return parsed;
}

function retries(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,2}$/.test(value.trim())) throw new UsageError(`--max-retries takes a whole number from 0 to 99; got "${value}"`);
  return Number(value);
}

export function parseSay(args: string[]): SayArgs {
  const { values, positionals } = parse("say", args, sayOptions);
  return {
    json: values.json ?? false,
    baseUrl: values["base-url"],
    maxRetries: retries(values["max-retries"]),
    help: values.help ?? false,
    words: positionals,
    voice: values.voice,
    output: values.output,
    format: values.format,
    file: values.file,
    speed: number("speed", values.speed),
    pitch: number("pitch", values.pitch),
    volume: number("volume", values.volume),
    srt: values.srt,
    vtt: values.vtt,
    ssml: values.ssml ?? false,
  };
}

/** `voices` and `account` take only the common options. */
export function parseSimple(command: Command, args: string[]): CommonArgs {
  const { values, positionals } = parse(command, args, common);
  if (positionals.length > 0) throw new UsageError(`\`fy ${command}\` takes no arguments, got "${positionals.join(" ")}"`);
  return {
    json: values.json ?? false,
    baseUrl: values["base-url"],
    maxRetries: retries(values["max-retries"]),
    help: values.help ?? false,
  };
}

export function isCommand(value: string | undefined): value is Command {
  return (COMMANDS as readonly string[]).includes(value ?? "");
}
