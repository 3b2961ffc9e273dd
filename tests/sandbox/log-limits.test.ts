import { afterAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/ports/sandbox";
import { plain, recordingBridge } from "./support";

/**
 * Issue 31 item 9: one rule for the log limits, the one README "Hosted functions" states (200 lines /
 * 64 KiB): output past the limit is dropped (a line that crosses it is cut), the run goes on and keeps
 * its result, and the outcome is `status: error` with `log_limit_exceeded` (another failure's code
 * wins). One huge line and many small ones are the same case.
 */
const sandbox = createSandbox({ poolSize: 1 });
afterAll(() => sandbox.close());

const KIB = 1024;
const bytesOf = (logs: { message: string }[]) => logs.reduce((sum, line) => sum + Buffer.byteLength(line.message), 0);

describe("the log limits", () => {
  it("cut one 10 MB line at 64 KiB and report log_limit_exceeded, keeping the result", async () => {
    const outcome = await sandbox.run(plain("export default async function () { console.log('x'.repeat(10e6)); return 'finished'; }"), recordingBridge());
    expect(outcome.status).toBe("error");
    expect(outcome.error).toMatch(/^log_limit_exceeded: /);
    expect(outcome.result).toBe("finished");
    expect(outcome.logs).toHaveLength(1);
    expect(bytesOf(outcome.logs)).toBe(64 * KIB);
  });

  it("drop the lines past 200 with the same outcome", async () => {
    const outcome = await sandbox.run(
      plain("export default async function () { for (let i = 0; i < 1000; i++) console.log('line', i); return 'finished'; }"),
      recordingBridge(),
    );
    expect(outcome.status).toBe("error");
    expect(outcome.error).toMatch(/^log_limit_exceeded: /);
    expect(outcome.result).toBe("finished");
    expect(outcome.logs).toHaveLength(200);
  });

  it("count a line cut below a larger byte budget as output dropped too", async () => {
    const code = "export default async function () { console.log('z'.repeat(100000)); return 1; }";
    const outcome = await sandbox.run(plain(code, { limits: { logBytes: 1024 * KIB } }), recordingBridge());
    expect(outcome.error).toMatch(/^log_limit_exceeded: /);
    expect(outcome.result).toBe(1);
    expect(outcome.logs[0]?.message.length).toBeLessThan(100000);
  });

  it("keep a line of exactly 64 KiB whole, with status ok", async () => {
    const outcome = await sandbox.run(plain("export default async function () { console.log('x'.repeat(65536)); return 'fits'; }"), recordingBridge());
    expect(outcome).toMatchObject({ status: "ok", error: null, result: "fits" });
    expect(bytesOf(outcome.logs)).toBe(64 * KIB);
  });

  it("apply whatever the code did to String.prototype or Array.prototype", async () => {
    const code =
      "export default async function () { String.prototype.slice = () => 'tiny'; Array.prototype.join = function () { return 'q'.repeat(200000); }; console.log('a', 'b'); return 2; }";
    const outcome = await sandbox.run(plain(code), recordingBridge());
    expect(outcome.error).toMatch(/^log_limit_exceeded: /);
    expect(outcome.result).toBe(2);
    expect(bytesOf(outcome.logs)).toBe(64 * KIB);
  });
});
