import path from "node:path";
import { parseArgs } from "node:util";
import { env } from "@/lib/config";
import { openDatabase } from "@/lib/ports/db/open";
import type { DatabaseHandle } from "@/lib/ports/db/types";
import { bootstrapDemo, ensureReferenceData } from "@/lib/domain/organizations";
import { commands } from "./commands";

/**
 * `npm run svc -- <group> <command> [--flags]`: admin and developer tasks on the configured database
 * (DATABASE_URL, else the embedded one under .data/, which must not be open in a running dev server).
 * The database opens on a command's first use: the config commands never use it (they call the API).
 */
async function main(argv: string[]) {
  const [group, second, ...others] = argv;
  // A one-word command (`login`, `listen`) has name "": everything after its word is its arguments.
  const single = commands.find((c) => c.group === group && c.name === "");
  const command = single ?? commands.find((c) => c.group === group && c.name === second);
  const name = single ? "" : second;
  const rest = single ? argv.slice(1) : others;
  if (!command) {
    printHelp(group ? `Unknown command '${[group, second].filter(Boolean).join(" ")}'.` : null);
    process.exitCode = group ? 2 : 0;
    return;
  }
  const { values, positionals } = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: Boolean(command.positional) });
  if (positionals.length > 1) throw new Error(`'${[group, name].filter(Boolean).join(" ")}' takes one ${command.positional}, not ${positionals.length}.`);
  const flags = { ...values } as Record<string, string | boolean | undefined>;
  if (command.positional && positionals[0] !== undefined) flags[command.positional] = positionals[0];
  let database: DatabaseHandle | null = null;
  const db = async () => {
    if (!database) {
      const config = env();
      database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: path.join(config.dataDir, "pglite"), max: 2 });
      await ensureReferenceData(database.db);
      // Scripted set-up: the same bootstrap the server does, so `db migrate` alone prepares a database.
      if (config.bootstrapKey) await bootstrapDemo(database.db, config.bootstrapKey, new Date());
    }
    return database.db;
  };
  try {
    await command.run(flags, { db, out: (line) => console.log(line) });
  } finally {
    await (database as DatabaseHandle | null)?.close();
  }
}

function printHelp(problem: string | null) {
  if (problem) console.error(problem);
  console.log("Usage: npm run svc -- <command> [options]\n");
  for (const c of commands) console.log(`  ${[c.group, c.name].filter(Boolean).join(" ").padEnd(22)} ${c.summary}`);
}

try {
  process.loadEnvFile?.(".env");
} catch {
  /* no .env file: environment variables only */
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
