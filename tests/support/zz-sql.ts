import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { afterAll } from "vitest";
const g = globalThis as any;
if (!g.__sqlStats) {
  g.__sqlStats = new Map<string, { n: number; ms: number }>();
  const rec = (text: string, ms: number) => {
    const key = text.replace(/\s+/g, " ").slice(0, 160);
    const e = g.__sqlStats.get(key) ?? { n: 0, ms: 0 };
    e.n++;
    e.ms += ms;
    g.__sqlStats.set(key, e);
  };
  const wrap = (obj: any, name: string) => {
    const orig = obj[name];
    obj[name] = async function (this: any, text: string, ...rest: any[]) {
      const t = performance.now();
      try {
        return await orig.call(this, text, ...rest);
      } finally {
        rec(typeof text === "string" ? text : String(text), performance.now() - t);
      }
    };
  };
  wrap(PGlite.prototype, "query");
  wrap(PGlite.prototype, "exec");
  const origTx = PGlite.prototype.transaction;
  PGlite.prototype.transaction = function (this: any, cb: any) {
    return origTx.call(this, (tx: any) => {
      wrap(tx, "query");
      wrap(tx, "exec");
      return cb(tx);
    });
  } as any;
}
afterAll(() => {
  fs.writeFileSync(`/tmp/sqlstats/${process.pid}.json`, JSON.stringify([...g.__sqlStats.entries()]));
});
