import { execFile } from "node:child_process";
import fs from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { PROVIDER_SEND_JOB } from "@/lib/domain/messages/provider-send";
import { startHarness, type Harness } from "../messages/support";
import { testerNumber } from "../messages/send-support";
import { deployed } from "../functions/support";
import { publish } from "../flows/support";
import { freePairSlot, sentTo, textsTo } from "../automations/support";
import { allUnchanged, type DiffItem } from "../config/support";

/**
 * Issue 17's acceptance, end to end: a project switched to FLOWS by a config file applied from the
 * CLI (a real process against a real port) answers the sandbox phone's keyword with buttons, waits
 * for the reply, runs a function and sends a flow; the same file applied twice reports no change.
 */
const FILE = "examples/config/coffee-shop.yaml";
const PRICE = "export default async (event) => ({ text: `A ${event.variables.reply_option} is 3 euros.` });";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

/** `npm run svc -- <args>` in its own process, as tests/config/cli.test.ts runs it. */
function svc(args: string[], url: string, key: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "cli/index.ts", ...args, "--url", url, "--key", key],
      { cwd: process.cwd(), env: { ...process.env, NO_COLOR: "1", SVC_API_URL: "", SVC_API_KEY: "" }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * Sends are paced at one per 6 s per recipient (tests/messages/send-pacing.test.ts). Instead of sleeping,
 * the pair's slot is made exactly free on our limiter (a refund alone can leave it at -1 when nothing
 * held it, letting two sends through at once) and on the simulator's side.
 */
/** The customer writes and every job it causes runs (say() of tests/automations). */
async function turn(tester: string, input: Record<string, unknown>) {
  await freePairSlot(h, tester);
  expect((await h.customer({ from: tester, name: "Ana", ...input })).delivered_status).toBe(200);
  await h.settle(20);
}

/** A second send of one turn waits in the queue for the pair's slot: free it and make that send due now. */
async function releasePacedSends(tester: string) {
  await freePairSlot(h, tester);
  await h.app.db.execute(sql`update pgboss.job set start_after = now() where name = ${PROVIDER_SEND_JOB} and state in ('created', 'retry')`);
  await h.settle(20);
}

describe("issue 17: config-as-code automations on the sandbox", () => {
  it("a CLI-applied config answers 'Menú' with buttons, waits, runs a function, sends a flow; re-applying changes nothing", async () => {
    const seeded = await h.app.seed({ projectName: "Coffee shop" });
    const api = `${h.server.url}/api/v1`;
    const cliKey = await h.app.addKey(seeded, ["config:read", "config:write"]);
    const project = () => h.app.call("GET", `/projects/${seeded.projectId}`, { key: seeded.key });
    expect((await project()).body.routing_mode).toBe("EXTERNAL");
    await deployed(h.app, seeded.key, "price", PRICE);

    const applied = await svc(["config", "apply", FILE], api, cliKey);
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("Applied: 2 created, 1 updated.");
    expect((await project()).body.routing_mode).toBe("FLOWS");

    const [flow] = (await h.app.call("GET", "/flows?config_key=order", { key: seeded.key })).body.data as { id: string }[];
    const published = await publish(h, seeded.key, flow!.id);
    expect(published.status).toBe("PUBLISHED");

    const tester = testerNumber();
    await h.join(seeded.projectId, tester, "Ana");
    await turn(tester, { type: "text", text: "Menú please" });
    const [menu] = sentTo(h, tester);
    expect(menu!.type).toBe("interactive");
    expect((menu!.body as any).interactive).toMatchObject({
      type: "button",
      body: { text: "Hi Ana! Coffee or tea?" },
      action: {
        buttons: [
          { type: "reply", reply: { id: "coffee", title: "Coffee" } },
          { type: "reply", reply: { id: "tea", title: "Tea" } },
        ],
      },
    });
    const [automation] = (await h.app.call("GET", "/automations", { key: seeded.key })).body.data as { id: string; key: string }[];
    expect(automation!.key).toBe("menu");
    const runs = async () => (await h.app.call("GET", `/automations/${automation!.id}/runs`, { key: seeded.key })).body.data;
    expect(await runs()).toEqual([expect.objectContaining({ status: "WAITING", step: "wait_reply" })]);

    await turn(tester, { type: "button_reply", reply: { id: "coffee", title: "Coffee" } });
    expect(textsTo(h, tester)).toEqual(["Hi Ana! Coffee or tea?", "A coffee is 3 euros."]); // the flow waits for its slot
    await releasePacedSends(tester);
    expect(textsTo(h, tester)).toEqual(["Hi Ana! Coffee or tea?", "A coffee is 3 euros.", "Tap the button below to continue."]);
    expect((sentTo(h, tester)[2]!.body as any).interactive).toMatchObject({ type: "flow", action: { parameters: { flow_id: published.meta_flow_id } } });
    const [run] = await runs();
    expect(run, JSON.stringify(run?.error)).toMatchObject({ status: "COMPLETED", step_index: 4, error: null, variables: { reply_option: "coffee" } });
    const dispatches = await h.app.call("GET", `/flows/${flow!.id}/dispatches`, { key: seeded.key });
    expect(dispatches.body.data).toEqual([expect.objectContaining({ conversation_id: run.conversation_id, status: "SENT" })]);

    const again = await svc(["config", "apply", FILE], api, cliKey);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toMatch(/^\s+[+~-] /m);
    expect(again.stdout.trim().split("\n").at(-1)).toBe("Nothing to apply: 3 unchanged.");
    const diff = await h.app.call("POST", "/config/diff", { key: cliKey, body: parseYaml(fs.readFileSync(FILE, "utf8")) });
    expect(allUnchanged(diff.body.diff as DiffItem[]), JSON.stringify(diff.body.diff)).toBe(true);
    const dry = await svc(["config", "diff", FILE], api, cliKey);
    expect(dry.code).toBe(0);
    expect(dry.stdout.trim().split("\n").at(-1)).toBe("No changes: 3 unchanged.");
  });
});
