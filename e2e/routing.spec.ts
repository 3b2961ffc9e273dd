import { expect as baseExpect, test, type Page } from "./support/test";
import { ROUTING_RULE, ROUTING_SENTENCES } from "../lib/shared/routing-modes";
import { screenshot, signIn, warmUpAuth } from "./support/auth";
import { ownProject } from "./support/projects";

/**
 * One routing story (issue 32 items 5 and 6), each on a project of its own. (1) FLOWS: the settings
 * card, the channel card and the readiness card say the same sentence, and a FLOWS number with no
 * automation warns on its card and in readiness until an automation is applied. (2) AGENT: a number
 * with its own routing keeps it, a number that follows the project routes AGENT, and the Agent page
 * names the channels the agent answers on.
 */

// A production build on a shared machine, and agents provisioned through the job queue: allow slow answers.
const expect = baseExpect.configure({ timeout: 30_000 });

function channelCard(page: Page, name: string) {
  return page.getByRole("region", { name, exact: true });
}

/** Connects a PLATFORM_A number through the Channels page's dialog, with the routing chosen there ("" = same as the project). */
async function connectNumber(page: Page, projectId: string, name: string, routing: string, serial: number) {
  await page.goto(`/projects/${projectId}/channels`);
  await page.getByRole("button", { name: "Connect a channel" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Connect a channel" });
  const run = `${Date.now().toString(36)}${serial}`;
  await dialog.getByLabel("Display name").fill(name);
  await dialog.getByLabel("Phone number", { exact: true }).fill(`+1415${String(Date.now() + serial * 7919).slice(-7)}`);
  await dialog.getByLabel("Phone number ID").fill(`pn_route_${run}`);
  await dialog.getByLabel("Business account ID").fill(`waba_route_${run}`);
  await dialog.getByLabel("Access token").fill("e2e-access-token");
  if (routing) await dialog.getByLabel("Routing mode").selectOption(routing);
  await dialog.getByRole("button", { name: "Connect channel" }).click();
  await expect(dialog).toBeHidden();
  return channelCard(page, name);
}

test("FLOWS: one sentence on the settings, channel and readiness cards; a FLOWS number without an automation warns until one is applied", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await warmUpAuth(request);
  const run = Date.now().toString(36);
  const project = await ownProject(request, `Routing flows e2e ${run}`);
  await signIn(page);

  // 1. The project routes FLOWS, set on the Overview: the settings card says what that does.
  await page.goto(`/projects/${project.id}`);
  const settings = page.getByRole("region", { name: "Settings", exact: true });
  await settings.getByRole("radio", { name: /^Flows/ }).check();
  await expect(page.getByText("Routing set to Flows")).toBeVisible();
  await expect(settings.getByRole("radio", { name: /^Flows/ })).toBeChecked();
  await expect(settings.getByTestId("routing-sentence").filter({ hasText: ROUTING_SENTENCES.FLOWS })).toHaveCount(1);
  await expect(settings.getByTestId("routing-rule")).toContainText(ROUTING_RULE);

  // 2. A number connected with the project's routing: FLOWS, the same sentence, and the warning (no automation yet).
  const name = `Orders line ${run}`;
  const card = await connectNumber(page, project.id, name, "", 1);
  await expect(card.getByRole("radio", { name: "FLOWS" })).toBeChecked();
  await expect(card.getByTestId("routing-sentence")).toContainText(ROUTING_SENTENCES.FLOWS);
  const warning = card.getByTestId("routing-warning");
  await expect(warning).toContainText("This channel routes FLOWS but the project has no active automation");
  await expect(warning.getByRole("link", { name: "Turn an automation on in Automations" })).toHaveAttribute("href", `/projects/${project.id}/automations`);
  // The shared sandbox follows the project, in the same words.
  await expect(channelCard(page, "svc Sandbox").getByTestId("routing-sentence")).toHaveText(ROUTING_SENTENCES.FLOWS);
  await screenshot(page, "routing-flows-channel-warning");

  // 3. Readiness says the same sentence, and the same warning for the number.
  await page.goto(`/projects/${project.id}`);
  const capabilities = page.getByRole("list", { name: "Capabilities" });
  await expect(capabilities).toContainText(ROUTING_SENTENCES.FLOWS);
  await expect(page.getByRole("article").filter({ hasText: "This channel routes FLOWS but the project has no active automation" })).toHaveCount(1);
  await screenshot(page, "routing-flows-readiness");

  // 4. An automation applied (config-as-code, as the Config page applies it): the warning is gone everywhere.
  const applied = await page.request.post(`/api/dashboard/projects/${project.id}/config/apply`, {
    data: {
      version: 1,
      flows: [],
      automations: [{ key: `hello_${run}`, name: "Hello", trigger: { type: "ANY_MESSAGE" }, steps: [{ send_reply: { text: "Hello!" } }] }],
    },
  });
  expect(applied.ok(), await applied.text()).toBe(true);
  await page.goto(`/projects/${project.id}/channels`);
  await expect(channelCard(page, name).getByRole("radio", { name: "FLOWS" })).toBeChecked();
  await expect(channelCard(page, name).getByTestId("routing-warning")).toHaveCount(0);
  await page.goto(`/projects/${project.id}`);
  await expect(page.getByRole("list", { name: "Capabilities" })).toBeVisible();
  await expect(page.getByText("has no active automation")).toHaveCount(0);
});

test("AGENT: a number's own routing overrides the project's; the Agent page names the channels the agent answers on", async ({ page, request }) => {
  test.setTimeout(300_000);
  await warmUpAuth(request);
  const run = Date.now().toString(36);
  const project = await ownProject(request, `Routing agent e2e ${run}`);
  await signIn(page);

  // 1. AGENT on the Overview, with the rule said where it is offered.
  await page.goto(`/projects/${project.id}`);
  const settings = page.getByRole("region", { name: "Settings", exact: true });
  await settings.getByRole("radio", { name: /^Agent/ }).check();
  await expect(page.getByText("Routing set to Agent")).toBeVisible();
  await expect(settings.getByTestId("routing-sentence").filter({ hasText: ROUTING_SENTENCES.AGENT })).toHaveCount(1);
  await expect(settings.getByTestId("routing-rule")).toContainText(ROUTING_RULE);

  // 2. The project's number keeps a routing of its own (EXTERNAL); a second number follows the project (AGENT).
  const webhookLine = `Webhook line ${run}`;
  const own = await connectNumber(page, project.id, webhookLine, "EXTERNAL", 2);
  await expect(own.getByRole("radio", { name: "EXTERNAL" })).toBeChecked();
  await expect(own.getByTestId("routing-sentence")).toContainText(ROUTING_SENTENCES.EXTERNAL);
  const agentLine = `Agent line ${run}`;
  const following = await connectNumber(page, project.id, agentLine, "", 3);
  await expect(following.getByRole("radio", { name: "PROJECT" })).toBeChecked();
  await expect(following.getByTestId("routing-sentence")).toContainText("Project's routing, now AGENT.");
  await expect(following.getByTestId("routing-sentence")).toContainText(ROUTING_SENTENCES.AGENT);
  // The rule, said once above the cards where "PROJECT" (and so AGENT) is offered.
  await expect(page.getByTestId("routing-rule")).toHaveText(ROUTING_RULE);
  // No agent on it yet: where its messages go meanwhile.
  await expect(following.getByTestId("routing-warning")).toContainText("no ACTIVE business agent");
  await expect(following.getByTestId("routing-warning").getByRole("link", { name: "Turn the agent on in Agent" })).toBeVisible();

  // 3. The agent on the shared sandbox and on the following number.
  await page.goto(`/projects/${project.id}/agent`);
  const where = page.getByRole("region", { name: "Where the agent answers" });
  await expect(where.getByTestId("agent-answers-on")).toHaveText("The agent answers customers on no channel yet (the test console and eval still work).");
  await page.getByRole("button", { name: "Enable agent" }).click();
  await expect(page.getByTestId("agent-status")).toHaveText("ACTIVE", { timeout: 45_000 });
  await page.getByLabel("Channel", { exact: true }).selectOption({ label: `${agentLine} · Business messaging (PLATFORM_A)` });
  await expect(page.getByRole("button", { name: "Enable agent" })).toBeEnabled();
  await page.getByRole("button", { name: "Enable agent" }).click();
  await expect(page.getByTestId("agent-status")).toHaveText("ACTIVE", { timeout: 45_000 });

  // 4. It answers on those two, by name; not on the number with its own EXTERNAL routing, and says why.
  await expect(where.getByTestId("agent-answers-on")).toHaveText(`The agent answers customers on svc Sandbox (shared sandbox), ${agentLine}.`);
  const notAnswering = where.getByRole("list", { name: "Channels the agent does not answer on" });
  await expect(notAnswering).toContainText(`${webhookLine}: It routes EXTERNAL, its own routing, which overrides the project's`);
  await expect(where).toContainText(ROUTING_RULE);
  await screenshot(page, "routing-agent-page");

  // 5. The number now routes AGENT with an ACTIVE agent: its warning is gone.
  await page.goto(`/projects/${project.id}/channels`);
  await expect(channelCard(page, agentLine).getByRole("radio", { name: "PROJECT" })).toBeChecked();
  await expect(channelCard(page, agentLine).getByTestId("routing-warning")).toHaveCount(0);
  await screenshot(page, "routing-agent-channels");
});
