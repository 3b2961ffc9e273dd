import os from "node:os";
import path from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { spawnProc, waitForLine } from "../../bench/procs";

// The bench and the fault suite wait for a process's ready line. A worker that starts behind a backlog
// logs an error per job right after it: the fault suite's "worker did not start within 90 s" came from
// a ready line that had scrolled out of the 40-line tail between two polls.
describe("spawnProc printed()", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-proc-printed-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("remembers a line the tail no longer holds", async () => {
    const script = `console.log("svc worker: running jobs"); for (let i = 0; i < 200; i++) console.error("job " + i + " failed");`;
    const proc = spawnProc("printer", ["-e", script], process.env, path.join(dir, "printer.log"));
    // Asked before anything arrives (as a wait does right after the spawn): not yet, and now watched.
    expect(proc.printed("running jobs")).toBe(false);
    // 'close' comes after the last output is read ('exit' can come before it).
    const closed = new Promise((resolve) => proc.child.on("close", resolve));
    expect(await proc.exited).toBe(0);
    await closed;
    expect(proc.tail()).not.toContain("running jobs");
    expect(proc.printed("running jobs")).toBe(true);
    expect(proc.printed("never printed")).toBe(false);
  });

  it("waitForLine sees the ready line even when a flood follows it at once", async () => {
    const script = `console.log("ready"); for (let i = 0; i < 500; i++) console.error("noise " + i); setTimeout(() => {}, 1500);`;
    const proc = spawnProc("flooder", ["-e", script], process.env, path.join(dir, "flooder.log"));
    expect(await waitForLine(proc, "ready", 5_000)).toBe(true);
    await proc.exited;
  });
});
