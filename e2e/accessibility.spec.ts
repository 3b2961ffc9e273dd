import http from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import { expect as baseExpect, test, type APIRequestContext, type BrowserContext, type Page } from "./support/test";
import { signIn, warmUpAuth } from "./support/auth";
import { ownProject } from "./support/projects";

/**
 * Every page of the dashboard (and the pages around it: sign-in, setup, invitation, CLI login, API
 * reference) passes axe-core with WCAG 2 A/AA and best-practice rules: no serious or critical
 * violation, and none of the moderate structural ones named in STRUCTURAL_RULES. The pages show a
 * project with real content (a dedicated number, an approved template, contacts, a conversation with
 * a reply, a draft broadcast, a deployed function, a flow, two automations, webhook deliveries, a key,
 * a pending invitation), all made through the API first, so lists and tables are not empty states.
 * The shared fixture fails any of these tests on a console or page error.
 */

// A production build on a shared machine, and data that goes through the job queue: allow slow answers, never sleep.
const expect = baseExpect.configure({ timeout: 30_000 });
const SANDBOX_SENDER_ID = "sandbox-phone-number-id";
const AXE_TAGS = ["wcag2a", "wcag2aa", "best-practice"];
/** Moderate in axe's scale, but each breaks how a screen reader user finds their way on the page. */
const STRUCTURAL_RULES = new Set([
  "heading-order",
  "landmark-unique",
  "landmark-no-duplicate-main",
  "landmark-no-duplicate-banner",
  "landmark-no-duplicate-contentinfo",
  "page-has-heading-one",
  "landmark-one-main",
]);

interface Seeded {
  projectId: string;
  channelId: string;
  conversationId: string;
  flowId: string;
  functionId: string;
  broadcastId: string;
  deliveryId: string;
  inviteToken: string;
  automationId: string;
  inboundMessageId: string;
}

let seeded: Seeded;
let signedIn: Awaited<ReturnType<BrowserContext["storageState"]>>;
let receiver: { url: string; close: () => Promise<void> };

/** A webhook endpoint on loopback that answers 200: the project's deliveries succeed. */
async function startReceiver() {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/svc-a11y-webhook`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Through the dashboard's own API as the signed-in owner: /api/dashboard/projects/{id}/<api path>. */
function dashboard(page: Page, projectId: string) {
  return async <T>(method: "GET" | "POST" | "PATCH", path: string, data?: unknown, headers?: Record<string, string>): Promise<T> => {
    const response = await page.request.fetch(`/api/dashboard/projects/${projectId}${path}`, { method, data, headers });
    expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  };
}

async function customerSays(request: APIRequestContext, from: string, text: string) {
  const sent = await request.post("/api/simulator/customer/messages", {
    data: { platform: "PLATFORM_A", sender_id: SANDBOX_SENDER_ID, from, type: "text", text },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
}

/** Everything the pages list, made once; the owner's signed-in state is kept for the page tests. */
async function seed(page: Page, request: APIRequestContext): Promise<Seeded> {
  const run = Date.now().toString(36);
  const from = `+1555${String(Date.now() + 9_000_000).slice(-7)}`;
  const project = await ownProject(request, `Accessibility e2e ${run}`);
  await signIn(page);
  const call = dashboard(page, project.id);

  // Routing EXTERNAL to a webhook of our own: the tester's messages become deliveries.
  await call("PATCH", `/projects/${project.id}`, { webhook_url: receiver.url, routing_mode: "EXTERNAL" });

  // A dedicated number, an approved template on it, opted-in contacts and a draft broadcast to them.
  const channel = await call<{ id: string }>("POST", "/channels", {
    platform: "PLATFORM_A",
    display_name: `Support line ${run}`,
    phone_number: `+1415${String(Date.now() + 9_100_000).slice(-7)}`,
    credentials: { phone_number_id: `pn_a11y_${run}`, business_account_id: `waba_a11y_${run}`, access_token: "e2e-access-token" },
  });
  const template = await call<{ id: string }>("POST", "/templates", {
    channel_id: channel.id,
    name: `order_ready_${run}`,
    language: "en_US",
    category: "UTILITY",
    components: [{ type: "BODY", text: "Hi {{1}}, your order is ready for pickup today.", example: { body_text: [["Ana"]] } }],
  });
  await expect.poll(async () => (await call<{ status: string }>("GET", `/templates/${template.id}`)).status, { timeout: 60_000 }).toBe("APPROVED");
  const stem = String(Date.now()).slice(-6);
  const phones = ["01", "02", "03"].map((n) => `+1650${stem}${n}`);
  for (const phone of phones) await call("POST", "/contacts", { phone, channel_id: channel.id, opt_in: true });
  const broadcast = await call<{ id: string }>(
    "POST",
    "/broadcasts",
    {
      name: `Pickup reminders ${run}`,
      channel_id: channel.id,
      template: { id: template.id },
      recipients: phones.map((to, i) => ({ to, parameters: { "1": `Customer ${i + 1}` } })),
    },
    { "Idempotency-Key": `a11y-broadcast-${run}` },
  );

  // A sandbox tester writes; the operator answers: a conversation with both sides, and deliveries.
  await customerSays(request, from, `join ${project.join_code}`);
  await customerSays(request, from, `Hello, is my order ready? ${run}`);
  let conversationId = "";
  await expect
    .poll(async () => {
      const list = await call<{ data: Array<{ id: string; phone: string | null }> }>("GET", "/conversations?limit=20");
      conversationId = list.data.find((c) => c.phone === from)?.id ?? "";
      return conversationId;
    })
    .not.toBe("");
  const channels = await call<{ data: Array<{ id: string; is_sandbox: boolean }> }>("GET", "/channels");
  const sandboxChannelId = channels.data.find((c) => c.is_sandbox)!.id;
  await call("POST", "/messages", { channel_id: sandboxChannelId, conversation_id: conversationId, text: `Yes, it is ready (${run}).` });
  let deliveryId = "";
  await expect
    .poll(async () => {
      const list = await call<{ data: Array<{ id: string; status: string }> }>("GET", "/webhook-deliveries?limit=20");
      deliveryId = list.data.find((d) => d.status === "succeeded")?.id ?? "";
      return deliveryId;
    })
    .not.toBe("");

  // A deployed function, two keyword automations (a page of one hides what repeats), a key and a pending invitation.
  const fn = await call<{ id: string }>("POST", "/functions", { slug: `order-status-${run}`, name: `Order status ${run}`, trigger_type: "KEYWORD" });
  const deployed = await call<{ status: string }>("POST", `/functions/${fn.id}/deploy`, {
    source: `export default async function (event) {\n  return { text: "Order ${run} ships tomorrow" };\n}\n`,
  });
  expect(deployed.status).toBe("ok");
  const automation = (key: string, keyword: string, reply: string) => ({
    key: `${key}_${run}`,
    name: `${key[0]!.toUpperCase()}${key.slice(1)} ${run}`,
    trigger: { type: "KEYWORD", match_mode: "CONTAINS_WORD", keywords: [`${keyword}${run}`] },
    steps: [{ send_reply: { text: reply } }],
  });
  await call("POST", "/config/apply", {
    version: 1,
    flows: [],
    automations: [automation("greeting", "hola", "Hi! How can we help?"), automation("hours", "hours", "We open at 9am every day.")],
  });
  const automations = await call<{ data: Array<{ id: string; key: string }> }>("GET", "/automations");
  const automationId = automations.data.find((a) => a.key === `greeting_${run}`)!.id;
  const messages = await call<{ data: Array<{ id: string; direction: string }> }>("GET", `/conversations/${conversationId}/messages?limit=20`);
  const inboundMessageId = messages.data.find((m) => m.direction === "inbound")!.id;
  await call("POST", "/keys", { kind: "secret", name: `Backend ${run}`, scopes: ["messages:send"] });
  const invited = await call<{ url: string }>("POST", "/members", { email: `a11y-${run}@e2e.svc.test`, role: "developer" });
  const inviteToken = invited.url.split("/invite/")[1]!;

  // A flow made the way an operator makes one: the New flow dialog's starter draft.
  await page.goto(`/projects/${project.id}/flows`);
  await page.getByRole("button", { name: "New flow" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New flow" });
  await dialog.getByLabel("Name", { exact: true }).fill(`Feedback ${run}`);
  await dialog.getByRole("button", { name: "Create flow" }).click();
  await expect(page).toHaveURL(/\/flows\/[^/]+$/);
  const flowId = new URL(page.url()).pathname.split("/").pop()!;

  return {
    projectId: project.id,
    channelId: channel.id,
    conversationId,
    flowId,
    functionId: fn.id,
    broadcastId: broadcast.id,
    deliveryId,
    inviteToken,
    automationId,
    inboundMessageId,
  };
}

/** Waits until the page has its main heading and no loading placeholder, then runs axe and fails on what matters. */
async function expectAccessible(page: Page, heading: RegExp | string) {
  await expect(page.getByRole("heading", { level: 1, name: heading }).first()).toBeVisible();
  await expectNoViolation(page);
}

async function expectNoViolation(page: Page) {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  const failing = violations.filter((v) => v.impact === "serious" || v.impact === "critical" || STRUCTURAL_RULES.has(v.id));
  const report = failing.flatMap((v) =>
    v.nodes.map(
      (node) => `${v.id} (${v.impact}): ${v.help} at ${node.target.join(" ")}${node.failureSummary ? `: ${node.failureSummary.replace(/\s+/g, " ")}` : ""}`,
    ),
  );
  const others = violations.filter((v) => !failing.includes(v)).map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}`);
  if (others.length > 0) test.info().annotations.push({ type: "axe, minor", description: others.join("; ") });
  baseExpect(report, `axe on ${new URL(page.url()).pathname}`).toEqual([]);
}

test.beforeAll(async ({ browser, request, consoleErrors }) => {
  test.setTimeout(300_000);
  await warmUpAuth(request);
  receiver = await startReceiver();
  const context = await browser.newContext();
  consoleErrors.watch(context);
  try {
    seeded = await seed(await context.newPage(), request);
    signedIn = await context.storageState();
  } finally {
    await context.close();
  }
});

test.afterAll(async ({ browser }) => {
  await receiver?.close();
  if (!seeded) return;
  // Dedicated channels are the organization's: disconnected, this one cannot change what other specs' projects show.
  const context = await browser.newContext({ storageState: signedIn });
  try {
    const response = await context.request.delete(`/api/dashboard/projects/${seeded.projectId}/channels/${seeded.channelId}`);
    expect(response.ok(), await response.text()).toBe(true);
  } finally {
    await context.close();
  }
});

test.describe("signed in", () => {
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this destructuring: it needs none.
  test.use({ storageState: async ({}, provide) => provide(signedIn) });

  const project = (segment = "") => `/projects/${seeded.projectId}${segment ? `/${segment}` : ""}`;
  const pages: Array<{ name: string; path: () => string; heading: RegExp | string }> = [
    { name: "overview", path: () => project(), heading: /Accessibility e2e/ },
    { name: "inbox", path: () => project("inbox"), heading: "Inbox" },
    { name: "conversation and contact", path: () => `${project("inbox")}?c=${seeded.conversationId}`, heading: "Inbox" },
    { name: "saved replies", path: () => project("saved-replies"), heading: "Saved replies" },
    { name: "channels", path: () => project("channels"), heading: "Channels" },
    { name: "flows", path: () => project("flows"), heading: "Flows" },
    { name: "flow editor", path: () => project(`flows/${seeded.flowId}`), heading: /^Feedback / },
    { name: "functions", path: () => project("functions"), heading: "Functions" },
    { name: "function editor", path: () => project(`functions/${seeded.functionId}`), heading: /^Order status / },
    { name: "templates", path: () => project("templates"), heading: "Templates" },
    { name: "template editor", path: () => project("templates/new"), heading: /template/i },
    { name: "broadcasts", path: () => project("broadcasts"), heading: "Broadcasts" },
    { name: "broadcast", path: () => project(`broadcasts/${seeded.broadcastId}`), heading: /^Pickup reminders / },
    { name: "automations", path: () => project("automations"), heading: "Automations" },
    { name: "automation builder", path: () => project("automations/new"), heading: "New automation" },
    { name: "automation editor", path: () => project(`automations/${seeded.automationId}`), heading: /^Greeting / },
    { name: "why did it (not) fire", path: () => project(`automations/messages/${seeded.inboundMessageId}`), heading: "Why did it (not) fire?" },
    { name: "agent", path: () => project("agent"), heading: "Agent" },
    { name: "config", path: () => project("config"), heading: "Config" },
    { name: "webhooks", path: () => project("webhooks"), heading: "Webhooks" },
    { name: "webhook delivery", path: () => project(`webhooks/${seeded.deliveryId}`), heading: /message\./ },
    { name: "API keys", path: () => project("keys"), heading: "API keys" },
    { name: "sandbox phone", path: () => project("sandbox"), heading: "Sandbox phone" },
    { name: "members", path: () => project("members"), heading: "Members" },
    { name: "audit log", path: () => project("audit"), heading: "Audit log" },
    { name: "API reference", path: () => "/docs/api", heading: /svc/i },
  ];
  for (const { name, path, heading } of pages) {
    test(`${name}: no serious axe violation`, async ({ page }) => {
      await page.goto(path());
      await expectAccessible(page, heading);
    });
  }

  // The dialogs an operator meets first, open over their page.
  const dialogs: Array<{ name: string; path: () => string; heading: string; button: string }> = [
    { name: "Connect a channel", path: () => project("channels"), heading: "Channels", button: "Connect a channel" },
    { name: "New broadcast", path: () => project("broadcasts"), heading: "Broadcasts", button: "New broadcast" },
    { name: "Create an API key", path: () => project("keys"), heading: "API keys", button: "Create key" },
    { name: "Invite a member", path: () => project("members"), heading: "Members", button: "Invite member" },
    { name: "Replay events", path: () => project("webhooks"), heading: "Webhooks", button: "Replay events" },
  ];
  for (const { name, path, heading, button } of dialogs) {
    test(`${name} dialog: no serious axe violation`, async ({ page }) => {
      await page.goto(path());
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await page.getByRole("button", { name: button, exact: true }).first().click();
      await expect(page.getByRole("dialog", { name })).toBeVisible();
      await expectNoViolation(page);
    });
  }

  test("Contact panel beside the thread: no serious axe violation", async ({ page }) => {
    await page.goto(`${project("inbox")}?c=${seeded.conversationId}`);
    await expect(page.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
    await page.getByRole("button", { name: "Contact", exact: true }).click();
    await expect(page.getByRole("complementary", { name: "Contact" }).getByText("Contact id")).toBeVisible();
    await expectNoViolation(page);
  });

  test("unknown project: no serious axe violation", async ({ page, consoleErrors }) => {
    // The page asks for the project before it knows there is none; those answers are 404s, on purpose here.
    consoleErrors.allowFailedResource(404, /\/api\/dashboard\/projects\/proj_doesnotexist\//);
    await page.goto("/projects/proj_doesnotexist");
    await expectAccessible(page, "Project not found");
  });

  test("CLI login confirmation: no serious axe violation", async ({ page, request }) => {
    const started = await request.post("/api/cli/device-codes", { data: { client_host: "a11y-laptop" } });
    expect(started.ok(), await started.text()).toBe(true);
    const { verification_url: url } = (await started.json()) as { verification_url: string };
    await page.goto(url);
    await expectAccessible(page, /CLI|log ?in/i);
  });
});

test.describe("signed out", () => {
  test("sign-in: no serious axe violation", async ({ page }) => {
    await page.goto("/sign-in");
    await expectAccessible(page, /Sign in/);
  });

  test("first-run setup, once done, sends to sign-in: no serious axe violation", async ({ page }) => {
    await page.goto("/setup");
    await expect(page).toHaveURL(/\/sign-in/);
    await expectAccessible(page, /Sign in/);
  });

  test("invitation: no serious axe violation", async ({ page }) => {
    await page.goto(`/invite/${seeded.inviteToken}`);
    await expectAccessible(page, /Join .+ as a developer/);
  });
});
