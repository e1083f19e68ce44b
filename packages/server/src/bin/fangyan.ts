#!/usr/bin/env node
import { existsSync, readFileSync } from "node:fs";
import { Command } from "commander";
import { AccountService } from "../accounts/service.js";
import { registerAdminCommands } from "../admin/cli.js";
import { type Config, parseConfig } from "../config/config.js";
import { registerReadCommand } from "../reading/command.js";
import { startServer } from "../server.js";
import { loadCatalog } from "../speech/catalog.js";
import { registerModelsCommand } from "../speech/sherpa/command.js";
import { registerMigrateCommand } from "../store/command.js";
import { describeStoreLocation, openStore } from "../store/open.js";

function config(): Config {
  return parseConfig(process.env);
}

function firstRunBanner(address: string, apiKey: string, voiceId: string, openai: boolean): string {
  const curl = openai
    ? [
        "  Or with curl, through the OpenAI-compatible endpoint (saves hi.mp3):",
        "",
        `      curl -H "Authorization: Bearer ${apiKey}" -d '{"model":"tts-1","input":"你好","voice":"${voiceId}"}' \\`,
        `        ${address}/v1/audio/speech -o hi.mp3`,
        "",
      ]
    : [];
  return [
    "",
    "  A demo account was created with 1 yuan of credit: 100 requests of up to 50 characters each.",
    "  Its API key is shown only this once; keep it:",
    "",
    `      ${apiKey}`,
    "",
    "  Make your first request (in another terminal, from this folder):",
    "",
    `      FANGYAN_API_KEY=${apiKey} FANGYAN_BASE_URL=${address}/api/v1 \\`,
    `        node examples/first-request.mjs "你好，世界！今日天氣好好。" ${voiceId}`,
    "",
    "  It prints the audio URL of an MP3 and saves it as first-request.mp3.",
    "",
    ...curl,
    "  Operators: npx fangyan admin --help",
    "",
  ].join("\n");
}

async function serve(): Promise<void> {
  const settings = config();
  const server = await startServer(settings);
  process.stdout.write(`Fangyan listening on ${server.address} (API ${server.address}/api/v1, data in ${settings.dataDir})\n`);
  if (server.demoApiKey) {
    const voices = loadCatalog(settings).voices.list();
    const voice = voices.find((v) => v.dialect_code === "yue") ?? voices[0];
    process.stdout.write(`${firstRunBanner(server.address, server.demoApiKey, voice?.id ?? "VOICE_ID", settings.openaiApi)}\n`);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      process.stderr.write(`fangyan: ${signal} again, exiting now\n`);
      process.exit(1);
    }
    stopping = true;
    server.app.log.info({ signal }, "draining requests in flight, then exiting");
    // A request cannot outlive its timeout, so neither may the drain.
    setTimeout(() => process.exit(1), settings.requestTimeoutMs + 5_000).unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
  return typeof manifest.version === "string" ? manifest.version : "unknown";
}

const program = new Command()
  .name("fangyan")
  .version(packageVersion(), "-V, --version", "print the version")
  .description("Fangyan text-to-speech service. Settings come from FANGYAN_* environment variables (see docs/configuration.md).");

program.command("serve", { isDefault: true }).description("run the HTTP service (the default)").action(serve);

registerMigrateCommand(program, config);
registerReadCommand(program, config);
registerModelsCommand(program, config);

registerAdminCommands(program, async (work) => {
  const location = config().database;
  // The admin command works on the server's data. Opening SQLite creates a missing file, so a
  // command run where no server keeps its data would create an empty database and show nothing.
  if (location.kind === "sqlite" && !existsSync(location.file)) {
    throw new Error(
      `no Fangyan database at ${describeStoreLocation(location)}. The admin command uses the server's data: run it inside the Fangyan folder (the server keeps it in data/ there), or set FANGYAN_DATA_DIR or FANGYAN_DATABASE_URL as the server has them`,
    );
  }
  const store = await openStore(location);
  try {
    return await work(new AccountService(store));
  } finally {
    await store.close();
  }
});

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`fangyan: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
