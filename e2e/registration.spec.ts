import { expect as baseExpect, test, type APIRequestContext } from "./support/test";
import { E2E_KEY } from "./env";
import { screenshot, signIn, warmUpAuth } from "./support/auth";

/**
 * A registration link end to end, on a project of its own (the sandbox's tester cap is per project):
 * the overview mints a test-mode link with its QR code; a new tester sends the prefilled text from the
 * Sandbox phone; the link turns COMPLETED on the overview and the tester has joined the project.
 */

const auth = { Authorization: `Bearer ${E2E_KEY}` };
// A production build on a shared machine, and an inbound message that goes through the job queue.
const expect = baseExpect.configure({ timeout: 30_000 });

async function ownProject(request: APIRequestContext, name: string): Promise<{ id: string }> {
  const created = await request.post("/api/v1/projects", { headers: auth, data: { name } });
  expect(created.ok(), await created.text()).toBe(true);
  return (await created.json()) as { id: string };
}

test.beforeAll(async ({ request }) => {
  await warmUpAuth(request);
});

test("a registration link minted on the overview completes when the tester sends its text", async ({ page, request }) => {
  test.setTimeout(180_000);
  const run = String(Date.now()).slice(-7);
  const project = await ownProject(request, `Registration ${run}`);
  const reference = `cust-${run}`;
  // Unique per run, offset from the other specs' tester numbers.
  const from = `+1555${String(Date.now() + 7_000_000).slice(-7)}`;
  await signIn(page);

  await page.goto(`/projects/${project.id}`);
  const card = page.getByRole("region", { name: "Registration link" });
  await card.getByLabel("Customer reference").fill(reference);
  await card.getByRole("button", { name: "Create link" }).click();
  const minted = card.getByTestId("registration-link");
  await expect(minted.getByTestId("registration-qr")).toBeVisible();
  await expect(minted.getByTestId("registration-qr")).toHaveAttribute("src", /^data:image\/svg\+xml/);
  await expect(minted).toContainText("Test (sandbox)");
  await expect(minted.getByTestId("registration-wa-link")).toHaveAttribute("href", /^https:\/\/wa\.me\/\d+\?text=/);
  const prefilled = (await minted.getByTestId("registration-prefilled").textContent())!;
  expect(prefilled).toMatch(/svcreg_[0-9A-Za-z]{22}$/);
  const row = card.getByTestId("registration-intent-row").filter({ hasText: reference });
  await expect(row).toContainText("PENDING");
  await screenshot(page, "registration-link");

  // A new tester sends the prefilled text (edited a little, as customers do) from the Sandbox phone.
  await page.goto(`/projects/${project.id}/sandbox`);
  const number = page.getByLabel("Customer number");
  await number.fill(from);
  await number.press("Enter");
  const phone = page.getByRole("region", { name: "Sandbox phone" });
  await expect(phone.getByText(/hasn.t joined/)).toBeVisible({ timeout: 20_000 });
  await phone.getByLabel("Customer message").fill(`${prefilled} thanks!`);
  await phone.getByRole("button", { name: "Send as customer" }).click();
  await expect(page.getByText("Joined", { exact: true })).toBeVisible({ timeout: 45_000 });

  // The overview shows the link COMPLETED.
  await page.goto(`/projects/${project.id}`);
  await expect(card.getByTestId("registration-intent-row").filter({ hasText: reference })).toContainText("COMPLETED", { timeout: 45_000 });
  await expect(page.getByTestId("tester-count")).toContainText("1 tester has joined");
  await screenshot(page, "registration-completed");

  // Through the dashboard API (the session's cookie): the intent names the contact, which carries the reference.
  const base = `/api/dashboard/projects/${project.id}`;
  const listed = await page.request.get(`${base}/registration-intents?customer_reference=${reference}`);
  expect(listed.ok(), await listed.text()).toBe(true);
  const [intent] = ((await listed.json()) as { data: { status: string; contact_id: string }[] }).data;
  expect(intent?.status).toBe("COMPLETED");
  const contact = await page.request.get(`${base}/contacts/${intent!.contact_id}`);
  expect(((await contact.json()) as { reference_id: string }).reference_id).toBe(reference);
});
