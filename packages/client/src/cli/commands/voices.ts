import { parseSimple } from "../args.js";
import { clientFor, type Io, printJson } from "../context.js";
import { columns } from "../format.js";
import { VOICES_HELP } from "../help.js";

export async function voices(io: Io, argv: string[]): Promise<void> {
  const args = parseSimple("voices", argv);
  if (args.help) {
    io.stdout.write(VOICES_HELP);
    return;
  }
  const list = await clientFor(io, args).voices();
  if (args.json) {
    const wire = Object.fromEntries(
      Object.entries(list.byDialect).map(([dialect, entries]) => [
        dialect,
        entries.map((voice) => ({ id: voice.id, name: voice.name, dialect_code: voice.dialectCode ?? null, gender: voice.gender ?? null })),
      ]),
    );
    printJson(io, { voices: wire });
    return;
  }
  if (list.voices.length === 0) {
    io.stdout.write("The service offers no voices\n");
    return;
  }
  // One table for all dialects, so that the columns line up from group to group.
  const rows = list.voices.map((voice) => [voice.id, voice.name, voice.gender ?? ""]);
  const lines = columns(rows, "  ");
  let at = 0;
  const out: string[] = [];
  for (const [dialect, entries] of Object.entries(list.byDialect)) {
    const code = entries.find((voice) => voice.dialectCode)?.dialectCode;
    out.push(code ? `${dialect} (${code})` : dialect);
    for (const line of lines.slice(at, at + entries.length)) out.push(line.trimEnd());
    at += entries.length;
    out.push("");
  }
  out.push("Use an id with fy say -v ID");
  io.stdout.write(`${out.join("\n")}\n`);
}
