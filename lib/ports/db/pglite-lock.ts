import fs from "node:fs";
import path from "node:path";

/**
 * PGlite is single-process: two processes opening one data folder corrupt it. A pid lock file turns
 * that into a clear error. A lock left by a dead process is taken over.
 */
export function acquireDataDirLock(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "svc.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      return () => {
        try {
          if (fs.readFileSync(file, "utf8") === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(fs.readFileSync(file, "utf8"));
      if (holder === process.pid) return () => {};
      if (holder && isAlive(holder)) {
        throw new Error(
          `The embedded database in ${dir} is in use by process ${holder}. PGlite allows one process at a time: ` +
            `stop that process (for example the dev server) first, or set DATABASE_URL to share a Postgres server.`,
          { cause: error },
        );
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
