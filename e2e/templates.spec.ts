import { expect as baseExpect, test, type APIRequestContext, type Page } from "./support/test";
import { E2E_KEY } from "./env";
import { screenshot, signIn, warmUpAuth } from "./support/auth";

/**
 * Message templates end to end, on a dedicated PLATFORM_A number connected to the built-in provider
 * simulator: an operator builds a template in the builder and watches the live preview follow each
 * edit, sees what the server would refuse marked under its field before anything is sent, submits, and watches PENDING turn APPROVED on the
 * list without reloading (the simulator reviews after SVC_SIMULATOR_TEMPLATE_REVIEW_MS, 2000 by
 * default). A body that starts with a variable comes back REJECTED with INVALID_FORMAT as its reason,
 * and a confirmed delete removes it.
 */

const auth = { Authorization: `Bearer ${E2E_KEY}` };
// A production build on a shared machine, and a review that arrives through the webhook and the job queue: allow slow answers, never sleep.
const expect = baseExpect.configure({ timeout: 30_000 });

async function ownProject(request: APIRequestContext, name: string): Promise<{ id: string }> {
  const created = await request.post("/api/v1/projects", { headers: auth, data: { name } });
  expect(created.ok(), await created.text()).toBe(true);
  return (await created.json()) as { id: string };
}

/**
 * The project's own number, connected through the dashboard's API as the operator: the simulator
 * reports every number it is asked about as in good standing, so it can submit templates.
 */
async function connectNumber(page: Page, projectId: string, run: string, offset: number): Promise<{ id: string; can_submit: boolean }> {
  const response = await page.request.post(`/api/dashboard/projects/${projectId}/channels`, {
    data: {
      platform: "PLATFORM_A",
      display_name: `Templates line ${run}`,
      phone_number: `+1415${String(Date.now() + offset).slice(-7)}`,
      credentials: { phone_number_id: `pn_tpl_${run}`, business_account_id: `waba_tpl_${run}`, access_token: "e2e-access-token" },
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
  const channel = (await response.json()) as { id: string; publish_readiness: { can_submit_templates: boolean; blockers: string[] } | null };
  return { id: channel.id, can_submit: channel.publish_readiness?.can_submit_templates === true };
}

/** Clicks Submit and answers the POST /templates response, so a refusal fails with the server's words. */
async function submit(page: Page) {
  const answer = page.waitForResponse(
    (response) => response.request().method() === "POST" && /\/api\/dashboard\/projects\/[^/]+\/templates$/.test(response.url()),
  );
  await page.getByRole("button", { name: "Submit for review" }).click();
  return answer;
}

/** Every POST /templates the page makes from now on (the browser's own requests). */
function templatePosts(page: Page): string[] {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && /\/api\/dashboard\/projects\/[^/]+\/templates$/.test(request.url())) posts.push(request.url());
  });
  return posts;
}

async function addButton(page: Page, kind: string) {
  await page.getByLabel("Kind of the new button").selectOption(kind);
  await page.getByRole("button", { name: "Add button" }).click();
}

function templateRow(page: Page, name: string) {
  return page.locator(`tr[data-template-name="${name}"]`);
}

test.beforeAll(async ({ request }) => {
  await warmUpAuth(request);
});

test("build a template with a live preview, submit it, and watch PENDING turn APPROVED without a reload", async ({ page, request }) => {
  test.setTimeout(240_000);
  const run = Date.now().toString(36);
  const name = `order_update_${run}`;
  const project = await ownProject(request, `Templates e2e ${run}`);
  await signIn(page);
  const channel = await connectNumber(page, project.id, run, 3_100_000);
  expect(channel.can_submit, "the simulated number should be able to submit templates (can_submit_templates)").toBe(true);

  // 1. The list is empty; the nav leads here.
  await page.goto(`/projects/${project.id}/templates`);
  await expect(page.getByRole("heading", { name: "Templates", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Templates", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("No templates yet")).toBeVisible();
  await page.getByRole("link", { name: "New template" }).first().click();
  await expect(page).toHaveURL(/\/templates\/new$/);

  // 2. Build it: the preview follows every edit, variables shown by their example values.
  await expect(page.getByLabel("Channel", { exact: true })).toHaveValue(channel.id);
  await page.getByLabel("Name", { exact: true }).fill(name);
  const preview = page.getByRole("region", { name: "Message preview" });
  await page.getByLabel("Header type").selectOption("TEXT");
  await page.getByLabel("Header text").fill("Your order");
  await expect(preview.getByTestId("preview-header")).toHaveText("Your order");
  const body = page.getByLabel("Body text");
  await body.fill("Hi ");
  await page.getByRole("button", { name: "Insert variable in body" }).click();
  await expect(body).toHaveValue("Hi {{1}}");
  await expect(body).toBeFocused();
  await body.press("End");
  await body.pressSequentially(", your order has shipped. Thanks!");
  await expect(preview.getByTestId("preview-body")).toHaveText("Hi {{1}}, your order has shipped. Thanks!");
  await page.getByLabel("Example for {{1}}").fill("Ana");
  await expect(preview.getByTestId("preview-body")).toHaveText("Hi Ana, your order has shipped. Thanks!");
  await page.getByLabel("Footer text").fill("Acme shop");
  await expect(preview.getByTestId("preview-footer")).toHaveText("Acme shop");
  await addButton(page, "QUICK_REPLY");
  await page.getByRole("region", { name: "Button 1" }).getByLabel("Button text").fill("Thanks!");
  await addButton(page, "URL");
  const link = page.getByRole("region", { name: "Button 2" });
  await link.getByLabel("Button text").fill("Track order");
  await link.getByLabel("URL", { exact: true }).fill("example.com/track");
  await expect(preview.getByRole("list", { name: "Buttons" })).toContainText("Thanks!");
  await expect(preview.getByRole("list", { name: "Buttons" })).toContainText("Track order");

  // 3. What the server would refuse (components.3.buttons.1.url) is marked on its field, and nothing is sent.
  const posts = templatePosts(page);
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(link.getByLabel("URL", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(link).toContainText("Must be an http(s) URL");
  await expect(page.getByTestId("template-submit-error")).toContainText("Nothing was sent yet. Fix the field marked below");
  expect(posts, "no POST /templates while the draft breaks a rule").toEqual([]);
  await link.getByLabel("URL", { exact: true }).fill("https://example.com/track/{{1}}");
  await link.getByLabel("Example URL").fill("https://example.com/track/A-123");
  await screenshot(page, "templates-builder");

  // 4. Submit: back on the list, PENDING, then APPROVED when the review arrives, with no reload.
  const accepted = await submit(page);
  expect(accepted.status(), await accepted.text()).toBe(200);
  expect(((await accepted.json()) as { status: string }).status).toBe("PENDING");
  await expect(page).toHaveURL(/\/templates$/);
  const status = templateRow(page, name).locator("[data-template-status]");
  await expect(status).toHaveAttribute("data-template-status", "PENDING");
  await expect(status).toHaveAttribute("data-template-status", "APPROVED");
  await expect(templateRow(page, name)).toContainText("Approved");
  await expect(templateRow(page, name)).toContainText("Utility");
  await screenshot(page, "templates-list");

  // 5. Filters ask the server: no REJECTED template here.
  await page.getByLabel("Status", { exact: true }).selectOption("REJECTED");
  await expect(page.getByText("No templates match these filters")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(templateRow(page, name)).toBeVisible();
});

test("a body that starts with a variable is REJECTED with INVALID_FORMAT, and a confirmed delete removes it", async ({ page, request }) => {
  test.setTimeout(240_000);
  const run = Date.now().toString(36);
  const name = `edge_variable_${run}`;
  const project = await ownProject(request, `Templates rejected e2e ${run}`);
  await signIn(page);
  const channel = await connectNumber(page, project.id, run, 3_200_000);
  expect(channel.can_submit, "the simulated number should be able to submit templates (can_submit_templates)").toBe(true);

  await page.goto(`/projects/${project.id}/templates/new`);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Category").selectOption("MARKETING");
  await page.getByLabel("Body text").fill("{{1}} is waiting for you at the shop");
  await page.getByLabel("Example for {{1}}").fill("Your parcel");
  await expect(page.getByRole("region", { name: "Message preview" }).getByTestId("preview-body")).toHaveText("Your parcel is waiting for you at the shop");
  const accepted = await submit(page);
  expect(accepted.status(), await accepted.text()).toBe(200);

  await expect(page).toHaveURL(/\/templates$/);
  const row = templateRow(page, name);
  await expect(row.locator("[data-template-status]")).toHaveAttribute("data-template-status", "REJECTED");
  await expect(row.getByTestId("rejection-reason")).toContainText("INVALID_FORMAT");
  await screenshot(page, "templates-rejected");

  await row.getByRole("button", { name: `Delete template ${name} (en_US)` }).click();
  const dialog = page.getByRole("dialog", { name: `Delete ${name} (en_US)?` });
  await dialog.getByRole("button", { name: "Delete template" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect(page.getByText("No templates yet")).toBeVisible();
});

test("a body variable without an example value is marked before any request, in the server's own words", async ({ page, request }) => {
  test.setTimeout(180_000);
  const run = Date.now().toString(36);
  const name = `table_ready_${run}`;
  const text = "Hi {{1}}, your table is ready.";
  const project = await ownProject(request, `Templates checked e2e ${run}`);
  await signIn(page);
  const channel = await connectNumber(page, project.id, run, 3_300_000);
  expect(channel.can_submit, "the simulated number should be able to submit templates (can_submit_templates)").toBe(true);

  const posts = templatePosts(page);
  await page.goto(`/projects/${project.id}/templates/new`);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Body text").fill(text);
  const example = page.getByLabel("Example for {{1}}");
  await expect(example).toBeVisible();

  // Submit holds it back: the message sits under the example values, the field is marked and focused.
  await page.getByRole("button", { name: "Submit for review" }).click();
  const inline = page.getByTestId("example-values-error");
  await expect(inline).toHaveText('Give {{1}} a non-empty sample value (example.body_text: [["…"]]).');
  await expect(example).toHaveAttribute("aria-invalid", "true");
  await expect(example).toBeFocused();
  await expect(page.getByTestId("template-submit-error")).toContainText("Nothing was sent yet. Fix the field marked below, then submit again.");
  await expect(page).toHaveURL(/\/templates\/new$/);
  await screenshot(page, "templates-checked-before-submit");
  expect(posts, "no POST /templates was made").toEqual([]);

  // The server answers the same request (the example left empty) with the same words.
  const server = await page.request.post(`/api/dashboard/projects/${project.id}/templates`, {
    data: {
      channel_id: channel.id,
      name,
      language: "en_US",
      category: "UTILITY",
      parameter_format: "POSITIONAL",
      components: [{ type: "BODY", text, example: { body_text: [[""]] } }],
    },
  });
  expect(server.status()).toBe(400);
  expect(((await server.json()) as { issues: Record<string, string[]> }).issues["components.0.example.body_text"]).toEqual([await inline.textContent()]);

  // Fixed as it is typed: the marks go, and the submit goes through.
  await example.fill("Ana");
  await expect(inline).toHaveCount(0);
  await expect(page.getByTestId("template-submit-error")).toHaveCount(0);
  const accepted = await submit(page);
  expect(accepted.status(), await accepted.text()).toBe(200);
  await expect(page).toHaveURL(/\/templates$/);
});
