import type { Command } from "commander";
import type { Config } from "../config/config.js";
import { copyStore } from "./copy.js";
import { migrateToLatest } from "./migrate.js";
import { describeStoreLocation, openKysely, parseStoreLocation } from "./open.js";

/** `fangyan migrate`: bring the configured database up to date, or copy one database into another. */
export function registerMigrateCommand(program: Command, config: () => Config): void {
  program
    .command("migrate")
    .description("apply database migrations (the server also does at start); with --from and --to, copy all data into an empty database")
    .option("--from <database>", "source: sqlite:PATH or postgres://…")
    .option("--to <database>", "target: sqlite:PATH or postgres://… (must be empty)")
    .option("--json", "print JSON")
    .action(async (options: { from?: string; to?: string; json?: boolean }) => {
      if ((options.from === undefined) !== (options.to === undefined)) throw new Error("give both --from and --to, or neither");
      if (options.from !== undefined && options.to !== undefined) {
        const settings = config();
        const from = parseStoreLocation(options.from, settings.databaseFile);
        const to = parseStoreLocation(options.to, settings.databaseFile);
        const report = await copyStore(from, to);
        const human = `Copied ${report.accounts} accounts, ${report.keys} keys and ${report.ledgerRows} ledger rows from ${describeStoreLocation(from)} to ${describeStoreLocation(to)}; balances and ledger agree.`;
        process.stdout.write(`${options.json ? JSON.stringify(report) : human}\n`);
        return;
      }
      const location = config().database;
      const db = await openKysely(location, 1);
      try {
        const applied = await migrateToLatest(db, location.kind);
        const human = applied.length
          ? `Applied ${applied.join(", ")} to ${describeStoreLocation(location)}`
          : `${describeStoreLocation(location)} is up to date`;
        process.stdout.write(`${options.json ? JSON.stringify({ applied }) : human}\n`);
      } finally {
        await db.destroy();
      }
    });
}
