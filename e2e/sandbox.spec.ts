import { expect, test, type APIRequestContext } from "./support/test";
import { E2E_KEY } from "./env";
import { screenshot, signIn } from "./support/auth";

/**
 * The Sandbox phone sends a location, a sample photo and a tap on the business's reply buttons (sent
 * from the inbox composer's reply-buttons mode), and each arrives in the inbox thread.
 */

const auth = { Authorization: `Bearer ${E2E_KEY}` };

async function demoProjectId(request: APIRequestContext): Promise<string> {
  const identity = await request.get("/api/v1/identity", { headers: auth });
  expect(identity.ok()).toBe(true);
  return ((await identity.json()) as { project: { id: string } }).project.id;
}

test("the phone's location, sample photo and button reply reach the inbox thread", async ({ page, request }) => {
  test.setTimeout(180_000);
  const projectId = await demoProjectId(request);
  // Unique per run (+1555 and 7 digits of the clock, offset from the inbox spec's numbers).
  const from = `+1555${String(Date.now() + 5_000_000).slice(-7)}`;
  await signIn(page);

  await page.goto(`/projects/${projectId}/sandbox`);
  const number = page.getByLabel("Customer number");
  await number.fill(from);
  await number.press("Enter");
  const phone = page.getByRole("region", { name: "Sandbox phone" });
  await expect(phone.getByText(`you are ${from}`)).toBeVisible();
  await expect(phone.getByText(/hasn.t joined/)).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Send join code" }).last().click();
  await expect(page.getByText("Joined", { exact: true })).toBeVisible({ timeout: 20_000 });
  const customerBubbles = phone.getByRole("listitem", { name: "Message from the customer" });

  // A preset location.
  await phone.getByRole("button", { name: "More message types" }).click();
  await phone.getByRole("button", { name: "Send location: Eiffel Tower" }).click();
  await expect(customerBubbles.filter({ hasText: "Eiffel Tower" })).toContainText("Sent", { timeout: 45_000 });

  // The simulator's placeholder photo (no download needed).
  await phone.getByRole("button", { name: "More message types" }).click();
  await phone.getByRole("button", { name: /Send sample photo/ }).click();
  await expect(customerBubbles.filter({ hasText: "Photo" })).toContainText("Sent", { timeout: 45_000 });

  // The business answers with reply buttons from the inbox composer.
  const openInInbox = page.getByRole("link", { name: "Open in inbox" }).first();
  await expect(openInInbox).toHaveAttribute("href", /c=conv_/, { timeout: 15_000 });
  const conversationHref = (await openInInbox.getAttribute("href"))!;
  await page.goto(conversationHref);
  const thread = page.getByRole("log", { name: /^Messages with / });
  await expect(thread.locator('li[data-direction="inbound"]').filter({ hasText: "Eiffel Tower" })).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Reply buttons" }).click();
  await page.getByRole("textbox", { name: "Message" }).fill("Which day suits you?");
  await page.getByRole("textbox", { name: "Button 1 title" }).fill("Monday");
  await page.getByRole("textbox", { name: "Button 2 title" }).fill("Tuesday");
  await page.getByRole("button", { name: "Send with buttons" }).click();
  const buttonsMessage = thread.locator('li[data-direction="outbound"]').filter({ hasText: "Which day suits you?" });
  await expect(buttonsMessage.getByRole("list", { name: "Reply buttons" })).toContainText("Tuesday", { timeout: 15_000 });
  await expect(buttonsMessage.locator("[data-status]")).toHaveAttribute("data-status", /^(sent|delivered|read)$/, { timeout: 30_000 });

  // The customer taps one on the phone.
  await page.goto(`/projects/${projectId}/sandbox`);
  const replyButtons = phone.getByRole("group", { name: "Reply buttons" });
  await expect(replyButtons.getByRole("button", { name: "Tuesday" })).toBeVisible({ timeout: 20_000 });
  await replyButtons.getByRole("button", { name: "Tuesday" }).click();
  await expect(customerBubbles.filter({ hasText: "Tuesday" })).toContainText("Sent", { timeout: 45_000 });
  await screenshot(page, "sandbox-phone-buttons");

  // Each one is in the inbox thread.
  await page.goto(conversationHref);
  const inbound = thread.locator('li[data-direction="inbound"]');
  await expect(inbound.filter({ hasText: "Eiffel Tower" })).toContainText("Location", { timeout: 20_000 });
  // The simulator's placeholder file, cached by svc and previewed from its signed media URL.
  await expect(inbound.getByRole("img", { name: "Photo" })).toBeVisible({ timeout: 30_000 });
  await expect(inbound.filter({ hasText: "Tapped a reply" })).toContainText("Tuesday");
  await screenshot(page, "inbox-content-types");
});
