import { expect, test, type APIRequestContext, type Page } from "./support/test";
import { E2E_KEY } from "./env";
import { screenshot, signIn } from "./support/auth";

/**
 * Contact erasure end to end: a tester writes from the Sandbox phone, the operator (the owner) opens
 * the conversation in the inbox, opens the contact, erases its personal data behind the typed
 * confirmation, and the conversation is gone from the inbox; the API answers 404 for the contact.
 */

const auth = { Authorization: `Bearer ${E2E_KEY}` };

async function demoProjectId(request: APIRequestContext): Promise<string> {
  const identity = await request.get("/api/v1/identity", { headers: auth });
  expect(identity.ok()).toBe(true);
  return ((await identity.json()) as { project: { id: string } }).project.id;
}

/** A number no earlier run used: +1556 and the last 7 digits of the clock. */
function uniqueNumber(): string {
  return `+1556${String(Date.now()).slice(-7)}`;
}

/** Opens the Sandbox phone as `from` and joins the demo project with its join code. */
async function joinAsTester(page: Page, projectId: string, from: string) {
  await page.goto(`/projects/${projectId}/sandbox`);
  const number = page.getByLabel("Customer number");
  await expect(number).toBeVisible();
  await number.fill(from);
  await number.press("Enter");
  const phone = page.getByRole("region", { name: "Sandbox phone" });
  await expect(phone.getByText(`you are ${from}`)).toBeVisible();
  await page.getByRole("button", { name: "Send join code" }).last().click();
  await expect(page.getByText("Joined", { exact: true })).toBeVisible({ timeout: 20_000 });
  return phone;
}

test("the operator erases a contact's personal data from the inbox and the conversation disappears", async ({ page, request }) => {
  test.setTimeout(180_000);
  const projectId = await demoProjectId(request);
  const from = uniqueNumber();
  await signIn(page);

  const phone = await joinAsTester(page, projectId, from);
  const hello = `Please forget me ${from.slice(-7)}`;
  await phone.getByLabel("Customer message").fill(hello);
  await phone.getByRole("button", { name: "Send as customer" }).click();
  await expect(phone.getByRole("listitem", { name: "Message from the customer" }).filter({ hasText: hello })).toContainText("Sent", { timeout: 45_000 });

  await page.goto(`/projects/${projectId}/inbox`);
  const list = page.getByRole("list", { name: "Conversations" });
  const row = list.getByRole("link").filter({ hasText: from });
  await expect(row).toBeVisible({ timeout: 20_000 });
  await row.click();
  await expect(page.getByRole("log", { name: /^Messages with / }).getByText(hello)).toBeVisible({ timeout: 20_000 });

  // The contact's details (the panel beside the thread; the Contact button opens it on this screen width), then the erase action.
  await page.getByRole("button", { name: "Contact", exact: true }).click();
  const details = page.getByRole("complementary", { name: "Contact" });
  await expect(details.getByText(from)).toBeVisible();
  const contactId = (await details.getByText(/^ct_/).textContent())!.trim();
  await details.getByRole("button", { name: "Erase personal data" }).click();

  const confirm = page.getByRole("dialog", { name: "Erase personal data?" });
  const erase = confirm.getByRole("button", { name: "Erase personal data" });
  await expect(erase).toBeDisabled();
  const typed = confirm.getByRole("textbox");
  await typed.fill("+1 000");
  await expect(erase).toBeDisabled();
  await typed.fill(from);
  await expect(erase).toBeEnabled();
  await screenshot(page, "erasure-confirm");
  await erase.click();

  await expect(page.getByText("Personal data erased")).toBeVisible();
  await expect(page).not.toHaveURL(/[?&]c=conv_/);
  await expect(list.getByRole("link").filter({ hasText: from })).toHaveCount(0, { timeout: 20_000 });
  await screenshot(page, "erasure-inbox-after");

  const gone = await request.get(`/api/v1/contacts/${contactId}`, { headers: auth });
  expect(gone.status()).toBe(404);
});
