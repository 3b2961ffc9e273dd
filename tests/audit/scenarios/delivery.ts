import { randomUUID } from "node:crypto";
import { createFlow, publish } from "../../flows/support";
import { connectNumber, createTemplate, templateBody } from "../../templates/support";
import { createBroadcast, optedIn, readyChannel } from "../../broadcasts/support";
import { ok, scenario, type Stage } from "./support";

/** What reaches customers: flows, templates, broadcasts. */

/** A DRAFT broadcast of an APPROVED template with one opted-in recipient. */
async function draftBroadcast(stage: Stage) {
  const ready = await readyChannel(stage.h, stage.seeded.key, `sale_${randomUUID().slice(0, 8)}`);
  const [phone] = await optedIn(stage.h, stage.seeded.key, 1, ready.channel.id);
  const created = await createBroadcast(stage.h, stage.seeded.key, {
    name: "Spring sale",
    channel_id: ready.channel.id,
    template: { id: ready.template.id },
    recipients: [{ to: `+${phone}`, parameters: { "1": "Ana" } }],
  });
  return created.id;
}

const write = (stage: Stage, path: string) => stage.api("POST", path, {}, { "idempotency-key": randomUUID() });

export const deliveryScenarios = [
  scenario({
    operationId: "publishFlow",
    proves: ["flow.published"],
    actor: "api_key",
    setup: async (stage) => (await createFlow(stage.h, stage.seeded.key)).id,
    act: (stage, id) => stage.api("POST", `/flows/${id}/publish`),
  }),
  scenario({
    operationId: "dashboardPublishFlowOnChannel",
    proves: ["flow.published"],
    actor: "user",
    setup: async (stage) => {
      await connectNumber(stage.h, stage.seeded.key);
      const flow = await createFlow(stage.h, stage.seeded.key, { name: "Feedback" });
      await publish(stage.h, stage.seeded.key, flow.id);
      return flow.id;
    },
    act: (stage, id) => stage.dash("POST", `/flows/${id}/channels`, { channel_id: "ch_sandbox" }),
  }),
  scenario({
    operationId: "createTemplate",
    proves: ["template.submitted"],
    actor: "api_key",
    setup: async (stage) => (await connectNumber(stage.h, stage.seeded.key)).id as string,
    act: (stage, channelId) => stage.api("POST", "/templates", templateBody(channelId)),
  }),
  scenario({
    operationId: "deleteTemplate",
    proves: ["template.deleted"],
    actor: "user",
    setup: async (stage) => {
      const channel = await connectNumber(stage.h, stage.seeded.key);
      return (await createTemplate(stage.h, stage.seeded.key, templateBody(channel.id))).id;
    },
    act: (stage, id) => stage.dash("DELETE", `/templates/${id}`),
  }),
  scenario({
    operationId: "sendBroadcast",
    proves: ["broadcast.sent"],
    actor: "api_key",
    setup: draftBroadcast,
    act: (stage, id) => write(stage, `/broadcasts/${id}/send`),
  }),
  scenario({
    operationId: "pauseBroadcast",
    proves: ["broadcast.paused"],
    actor: "api_key",
    setup: async (stage) => {
      const id = await draftBroadcast(stage);
      ok(await write(stage, `/broadcasts/${id}/send`), "send");
      return id;
    },
    act: (stage, id) => write(stage, `/broadcasts/${id}/pause`),
  }),
  scenario({
    operationId: "cancelBroadcast",
    proves: ["broadcast.cancelled"],
    actor: "api_key",
    setup: draftBroadcast,
    act: (stage, id) => write(stage, `/broadcasts/${id}/cancel`),
  }),
];
