import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect as baseExpect, test, type APIRequestContext, type Page } from "./support/test";
import { E2E_KEY } from "./env";
import { screenshot, signIn, warmUpAuth } from "./support/auth";

/**
 * Flows end to end: an operator builds a two-screen flow in the builder, saves it, publishes it and
 * watches PUBLISHED arrive, sends it to a sandbox tester; the tester opens it on the Sandbox phone,
 * fills in both screens and submits; the submission shows on the flow and the flow.completed event
 * reaches the project's webhook (the webhook log lists the delivery as succeeded).
 */

const auth = { Authorization: `Bearer ${E2E_KEY}` };
// A production build on a shared machine, and a publish that goes through the job queue: allow slow answers, never sleep.
const expect = baseExpect.configure({ timeout: 30_000 });

// The shared sandbox channel's provider sender id (lib/domain/channels/sandbox.ts, SANDBOX_PHONE_NUMBER_ID).
const SANDBOX_SENDER_ID = "sandbox-phone-number-id";

interface ProjectWire {
  id: string;
  join_code: string;
}

/** A webhook endpoint on loopback that answers 200 and keeps every body. */
async function startReceiver() {
  const bodies: string[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      bodies.push(body);
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    bodies,
    url: `http://127.0.0.1:${port}/svc-flows-webhook`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A project of its own (the demo project's webhook URL belongs to the webhooks spec), created with the
 * bootstrap key; the owner reaches it through the dashboard session.
 */
async function ownProject(request: APIRequestContext, run: string): Promise<ProjectWire> {
  const created = await request.post("/api/v1/projects", { headers: auth, data: { name: `Flows e2e ${run}` } });
  expect(created.ok(), await created.text()).toBe(true);
  return (await created.json()) as ProjectWire;
}

/** The tester joins the project on the shared sandbox through the provider simulator. */
async function joinSandbox(request: APIRequestContext, project: ProjectWire, from: string) {
  const joined = await request.post("/api/simulator/customer/messages", {
    data: { platform: "PLATFORM_A", sender_id: SANDBOX_SENDER_ID, from, type: "text", text: `join ${project.join_code}` },
  });
  expect(joined.ok(), await joined.text()).toBe(true);
}

/** Screen 2 of the starter draft gets a required single choice "rating" with two options. */
async function addRatingField(page: Page) {
  const screen = page.getByRole("region", { name: "Screen 2" });
  await screen.getByLabel("Type of the new field on Screen 2").selectOption("radio");
  await screen.getByRole("button", { name: "Add field" }).click();
  const field = screen.getByRole("group", { name: "Field 2" });
  await expect(field).toBeFocused();
  await field.getByLabel("Name", { exact: true }).fill("rating");
  await field.getByLabel("Label", { exact: true }).fill("Rating");
  await field.getByRole("checkbox", { name: "Required" }).check();
  await field.getByLabel("rating option 1 title").fill("Good");
  await field.getByLabel("rating option 2 title").fill("Okay");
}

test("build, publish and send a flow; the tester completes it on the sandbox phone and flow.completed is delivered", async ({ page, request }) => {
  test.setTimeout(300_000);
  await warmUpAuth(request);
  const run = Date.now().toString(36);
  // Unique per run (+1555 and 7 digits of the clock, offset from the other specs' numbers).
  const from = `+1555${String(Date.now() + 7_000_000).slice(-7)}`;
  const receiver = await startReceiver();
  try {
    const project = await ownProject(request, run);
    await signIn(page);
    const asOwner = (path: string) => `/api/dashboard/projects/${project.id}${path}`;
    const patched = await page.request.patch(asOwner(`/projects/${project.id}`), { data: { webhook_url: receiver.url, routing_mode: "EXTERNAL" } });
    expect(patched.ok(), await patched.text()).toBe(true);
    await joinSandbox(request, project, from);

    // 1. A new flow opens in the editor on the starter draft; the builder adds a field to screen 2.
    await page.goto(`/projects/${project.id}/flows`);
    await expect(page.getByRole("heading", { name: "Flows", level: 1 })).toBeVisible();
    await expect(page.getByText("No flows yet")).toBeVisible();
    await page.getByRole("button", { name: "New flow" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New flow" });
    await dialog.getByLabel("Name", { exact: true }).fill(`Feedback ${run}`);
    await dialog.getByLabel(/^Config key/).fill(`feedback_${run}`);
    await dialog.getByLabel(/^Locale/).fill("en");
    await dialog.getByRole("button", { name: "Create flow" }).click();
    await expect(page).toHaveURL(/\/flows\/[^/]+$/);
    const flowUrl = page.url();
    await expect(page.getByRole("heading", { name: `Feedback ${run}`, level: 1 })).toBeVisible();
    await expect(page.getByRole("region", { name: "Screen 1" }).getByLabel("Screen ID")).toHaveValue("DETAILS");
    await addRatingField(page);
    await expect(page.getByText("Unsaved changes", { exact: true })).toBeVisible();
    // The preview draws the unsaved draft from the builder.
    const preview = page.getByRole("region", { name: "Flow preview" });
    await page.getByLabel("Preview screen").selectOption("CONFIRM");
    await expect(preview.getByRole("radio", { name: "Okay" })).toBeVisible();

    // 2. Save (Ctrl+S): no findings; the preview now draws the compiled Flow JSON.
    await page.keyboard.press("Control+s");
    await expect(page.getByText("All changes saved", { exact: true })).toBeVisible();
    await expect(page.getByRole("region", { name: "Validation problems" })).toHaveCount(0);
    await expect(preview.getByRole("form", { name: "Confirm" })).toBeVisible();
    await page.getByRole("tab", { name: "Flow JSON" }).click();
    await expect(page.getByTestId("flow-json-editor")).toContainText('"version"');
    await page.getByRole("tab", { name: "Builder" }).click();
    await screenshot(page, "flows-editor-saved");

    // 3. Publish: PUBLISHING settles into PUBLISHED (version 1) without a reload.
    await page.getByRole("button", { name: "Publish" }).click();
    const header = page.locator("header").filter({ has: page.getByRole("heading", { level: 1 }) });
    await expect(header.locator('[data-meta-status="PUBLISHED"]')).toBeVisible({ timeout: 90_000 });
    await expect(header).toContainText("Version 1");

    // 4. Send it to the sandbox tester with its own button text.
    await page.getByRole("button", { name: "Send to a sandbox tester" }).click();
    const send = page.getByRole("dialog", { name: "Send to a sandbox tester" });
    const tester = send.getByLabel("Tester");
    await expect(tester.locator("option").filter({ hasText: from.slice(-7) })).toHaveCount(1);
    await tester.selectOption(
      (await tester
        .locator("option")
        .filter({ hasText: from.slice(-7) })
        .getAttribute("value"))!,
    );
    await send.getByLabel("Message", { exact: true }).fill("How did we do? Tell us in a minute.");
    await send.getByLabel(/^Button text/).fill("Give feedback");
    await send.getByRole("button", { name: "Send flow" }).click();
    await expect(page.getByText(/^Sent to /)).toBeVisible();
    await page.getByRole("tab", { name: "Dispatches" }).click();
    await expect(page.getByRole("region", { name: "Dispatches" }).getByRole("row").filter({ hasText: "svcft_" })).toContainText("Sent");

    // 5. The tester opens it on the Sandbox phone, fills in both screens and submits.
    await page.goto(`/projects/${project.id}/sandbox`);
    const number = page.getByLabel("Customer number");
    await number.fill(from);
    await number.press("Enter");
    const phone = page.getByRole("region", { name: "Sandbox phone" });
    await phone.getByRole("button", { name: "Give feedback" }).click();
    const details = phone.getByRole("dialog", { name: "Your details" });
    await details.getByRole("button", { name: "Continue" }).click();
    await expect(details.getByLabel("Full name")).toHaveAttribute("aria-invalid", "true");
    await details.getByLabel("Full name").fill("Ana E2E");
    await details.getByLabel("Email").fill(`ana.${run}@example.com`);
    await details.getByRole("button", { name: "Continue" }).click();
    const confirm = phone.getByRole("dialog", { name: "Confirm" });
    await confirm.getByRole("radio", { name: "Good" }).check();
    await confirm.getByRole("button", { name: "Submit" }).click();
    await expect(phone.getByText("Submitted", { exact: true })).toBeVisible({ timeout: 45_000 });
    await screenshot(page, "flows-sandbox-submitted");

    // 6. The submission is on the flow, with what the tester entered.
    await page.goto(flowUrl);
    await page.getByRole("tab", { name: "Submissions" }).click();
    const submission = page.getByRole("region", { name: "Submissions" }).getByRole("row").filter({ hasText: "Ana E2E" });
    await expect(submission).toContainText(/Validated|Forwarded/, { timeout: 60_000 });
    await expect(submission).toContainText("option_1");
    await page.getByRole("tab", { name: "Dispatches" }).click();
    await expect(page.getByRole("region", { name: "Dispatches" }).getByRole("row").filter({ hasText: "svcft_" })).toContainText("Completed");
    await screenshot(page, "flows-dispatch-completed");

    // 7. flow.completed reached the webhook, and the webhook log lists its delivery as succeeded.
    await expect.poll(() => receiver.bodies.some((body) => body.includes('"flow.completed"') && body.includes("Ana E2E")), { timeout: 90_000 }).toBe(true);
    await page.goto(`/projects/${project.id}/webhooks?event=flow.completed`);
    const delivery = page.getByRole("row").filter({ has: page.getByRole("link", { name: "flow.completed" }) });
    await expect(delivery.first()).toContainText("Succeeded", { timeout: 60_000 });
    await screenshot(page, "flows-webhook-log");

    // 8. The list groups the flow under its config key, published.
    await page.goto(`/projects/${project.id}/flows`);
    const group = page.getByRole("rowgroup", { name: `Config key feedback_${run}` });
    await expect(group.getByRole("link", { name: `Feedback ${run}` })).toBeVisible();
    await expect(group).toContainText("Published");
  } finally {
    await receiver.close();
  }
});
