import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { publish } from "../flows/support";
import { actions, apply, automationEntry, configDoc, flowEntry, simpleDraft } from "./support";

let h: Harness;
let seeded: Seeded;

beforeAll(async () => {
  h = await startHarness();
  seeded = await h.app.seed({ projectName: "Published flows" });
});
afterAll(() => h?.close());

async function flowOf(key: string) {
  const list = await h.app.call("GET", `/flows?config_key=${key}`, { key: seeded.key });
  return list.body.data as Array<{ id: string; status: string; meta_status: string | null; has_unpublished_changes: boolean }>;
}

describe("POST /config/apply with published flows", () => {
  it("never publishes; editing a PUBLISHED flow saves it with a warning, customers keep the published version", async () => {
    const created = await apply(h.app, seeded.key, configDoc({ flows: [flowEntry("live")] }));
    expect(created.status).toBe(200);
    const [flow] = await flowOf("live");
    expect(flow!.status).toBe("DRAFT");
    expect((await publish(h, seeded.key, flow!.id)).status).toBe("PUBLISHED");
    const edited = await apply(h.app, seeded.key, configDoc({ flows: [flowEntry("live", { draft: simpleDraft("Edited") })] }));
    expect(edited.body.diff).toEqual([{ type: "flow", key: "live", action: "update", changes: ["draft"] }]);
    expect(edited.body.issues).toEqual([expect.objectContaining({ path: "flows.0", severity: "warning", message: expect.stringContaining("PUBLISHED") })]);
    const [after] = await flowOf("live");
    expect(after).toMatchObject({ id: flow!.id, status: "PUBLISHED", has_unpublished_changes: true });
  });

  it("a published flow the document drops is deprecated (with a warning), a draft one deleted; its key can be used again", async () => {
    await apply(h.app, seeded.key, configDoc({ flows: [flowEntry("retire"), flowEntry("scratch")] }));
    const [retire] = await flowOf("retire");
    await publish(h, seeded.key, retire!.id);
    const res = await apply(h.app, seeded.key, configDoc({ automations: [] }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(actions(res.body.diff)).toEqual(expect.arrayContaining(["flow retire delete", "flow scratch delete"]));
    expect(res.body.issues).toContainEqual(expect.objectContaining({ severity: "warning", message: expect.stringContaining("deprecates it") }));
    expect(await flowOf("scratch")).toEqual([]);
    expect(await flowOf("retire")).toEqual([expect.objectContaining({ id: retire!.id, status: "DEPRECATED", meta_status: "DEPRECATED" })]);
    expect(res.body.config.flows).toEqual([]);
    const again = await apply(h.app, seeded.key, configDoc({ flows: [flowEntry("retire")] }));
    expect(actions(again.body.diff)).toEqual(["flow retire create"]);
  });

  it("a send_flow step to a flow that is not published is stored with a warning", async () => {
    const res = await apply(
      h.app,
      seeded.key,
      configDoc({ flows: [flowEntry("later")], automations: [automationEntry("a", { steps: [{ send_flow: { flow: "later" } }] })] }),
    );
    expect(res.status).toBe(200);
    expect(res.body.issues.map((i: { path: string }) => i.path)).toContain("automations.0.steps.0.send_flow.flow");
  });
});
