import { ok, scenario, type Stage } from "./support";

/** Where traffic goes (channels, a thread's owner) and a customer's data (erasure). */

let numbers = 0;

function connect(stage: Stage, accessToken = "t") {
  const n = `${process.pid}-${++numbers}`;
  return stage.api("POST", "/channels", {
    platform: "PLATFORM_A",
    display_name: "Support line",
    phone_number: "+15558880101",
    credentials: { phone_number_id: `pn-audit-${n}`, business_account_id: `waba-audit-${n}`, access_token: accessToken },
  });
}

async function connected(stage: Stage): Promise<string> {
  return ok(await connect(stage), "connect").body.id as string;
}

async function contact(stage: Stage): Promise<string> {
  const body = { phone: `+1555999${String(++numbers).padStart(4, "0")}`, reference_id: "crm-ana-lima" };
  return ok(await stage.api("POST", "/contacts", body), "contact").body.id as string;
}

export const channelScenarios = [
  scenario({
    operationId: "createChannel",
    proves: ["channel.connected"],
    actor: "api_key",
    act: (stage) => connect(stage, "provider-access-token-6666"),
    secrets: () => ["provider-access-token-6666"],
  }),
  scenario({
    operationId: "updateChannel",
    proves: ["channel.routing_changed"],
    actor: "user",
    setup: connected,
    act: (stage, id) => stage.dash("PATCH", `/channels/${id}`, { routing_mode: "FLOWS" }),
  }),
  scenario({
    operationId: "deleteChannel",
    proves: ["channel.disconnected"],
    actor: "api_key",
    setup: connected,
    act: (stage, id) => stage.api("DELETE", `/channels/${id}`),
  }),
  scenario({
    operationId: "eraseContact",
    proves: ["contact.erased"],
    actor: "user",
    setup: contact,
    act: (stage, id) => stage.dash("DELETE", `/contacts/${id}`),
    // What was erased must not live on in the log.
    secrets: () => ["crm-ana-lima", `1555999${String(numbers).padStart(4, "0")}`],
  }),
  scenario({
    operationId: "businessAgentThreadControl",
    proves: ["thread.taken_over"],
    actor: "user",
    setup: contact,
    act: (stage, contactId) => stage.dash("POST", "/business-agents/thread-control", { action: "take", channel_id: "ch_sandbox", contact_id: contactId }),
  }),
  scenario({
    operationId: "businessAgentThreadControl",
    proves: ["thread.passed"],
    actor: "api_key",
    setup: contact,
    act: (stage, contactId) =>
      stage.api("POST", "/business-agents/thread-control", { action: "pass", channel_id: "ch_sandbox", contact_id: contactId, reason: "needs a person" }),
  }),
];
