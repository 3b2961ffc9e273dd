import AxeBuilder from "@axe-core/playwright";
import { expect as baseExpect, test, type Page } from "./support/test";
import { screenshot, signIn, warmUpAuth } from "./support/auth";
import { SANDBOX_CHANNEL_ID, joinSandboxTester, ownProject } from "./support/projects";

/**
 * The team inbox (issue 37), done-when: two signed-in members in two browsers. A customer writes from
 * the sandbox phone (the simulator's customer endpoint the phone page calls); the conversation appears
 * in "Unassigned" as unread for both, without a reload. Member A assigns it to themself, adds a private
 * note and answers with a saved reply; member B sees the assignment, the note and the reply without a
 * reload; the customer's phone shows the reply and not the note; the audit log shows the assignment.
 */

// A production build on a shared machine, and data that goes through the job queue: allow slow answers, never sleep.
const expect = baseExpect.configure({ timeout: 30_000 });
const AXE_TAGS = ["wcag2a", "wcag2aa", "best-practice"];

async function expectNoSeriousAxeViolation(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  const failing = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((node) => `${v.id} (${v.impact}): ${v.help} at ${node.target.join(" ")}`));
  baseExpect(failing, `axe on ${new URL(page.url()).pathname}`).toEqual([]);
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  await warmUpAuth(request);
});

test("two members work one conversation: live unread, assignment, private note, saved reply, audit", async ({ page, browser, request, consoleErrors }) => {
  // Three bcrypt passwords (accept, two sign-ins), a production build and the job queue on a shared 2-core machine.
  test.setTimeout(300_000);
  const run = String(Date.now()).slice(-7);
  const from = `+1555${run}`;
  const project = await ownProject(request, `Team inbox ${run}`);
  const inbox = `/projects/${project.id}/inbox`;

  // Member A: the owner. Member B: a developer invited into the organization, who accepts.
  await signIn(page);
  const me = (await (await page.request.get("/api/dashboard/me")).json()) as { user: { name: string | null; email: string } };
  const memberA = me.user.name ?? me.user.email;
  const emailB = `teammate-${run}@e2e.svc.test`;
  const passwordB = "e2e-Teammate-Password-1";
  const invited = await page.request.post(`/api/dashboard/projects/${project.id}/members`, { data: { email: emailB, role: "developer" } });
  expect(invited.ok(), await invited.text()).toBe(true);
  const token = ((await invited.json()) as { url: string }).url.split("/invite/")[1]!;
  const accepted = await request.post(`/api/dashboard/invitations/${token}/accept`, { data: { name: "Teammate B", password: passwordB } });
  expect(accepted.ok(), await accepted.text()).toBe(true);

  // The saved reply, through the API as member A (the settings page has its own spec: e2e/saved-replies.spec.ts).
  const replyText = `Thanks for writing from {{contact.phone}}: your order ships today (ref ${run}).`;
  const rendered = `Thanks for writing from ${from}: your order ships today (ref ${run}).`;
  const saved = await page.request.post(`/api/dashboard/projects/${project.id}/saved-replies`, {
    data: { shortcut: `ships-${run}`, title: "Order ships today", body: replyText },
  });
  expect(saved.ok(), await saved.text()).toBe(true);

  const contextB = await browser.newContext();
  consoleErrors.watch(contextB);
  try {
    const pageB = await contextB.newPage();
    await signIn(pageB, { email: emailB, password: passwordB });

    // Both open "Unassigned" before the customer writes: what follows arrives without a reload.
    await page.goto(`${inbox}?view=unassigned`);
    await pageB.goto(`${inbox}?view=unassigned`);
    for (const member of [page, pageB]) {
      await expect(member.getByRole("navigation", { name: "Inbox views" }).getByRole("link", { name: /^Unassigned/ })).toHaveAttribute("aria-current", "page");
      await expect(member.getByRole("status", { name: /^Updates:/ })).toBeVisible();
    }

    // The customer joins the project's sandbox and writes from the Sandbox phone (a page of its own).
    await joinSandboxTester(request, project, from);
    const hello = `Where is my order? ${run}`;
    const phonePage = await page.context().newPage();
    await phonePage.goto(`/projects/${project.id}/sandbox`);
    const customerNumber = phonePage.getByLabel("Customer number");
    await customerNumber.fill(from);
    await customerNumber.press("Enter");
    const phone = phonePage.getByRole("region", { name: "Sandbox phone" });
    await phone.getByRole("textbox", { name: "Customer message" }).fill(hello);
    await phone.getByRole("button", { name: "Send as customer" }).click();
    await expect(phone.getByRole("listitem", { name: "Message from the customer" }).filter({ hasText: hello })).toContainText("Sent", { timeout: 45_000 });

    // Unread for both, live: bold with a count badge.
    const rowA = page.getByRole("list", { name: "Conversations" }).getByRole("link").filter({ hasText: from });
    const rowB = pageB.getByRole("list", { name: "Conversations" }).getByRole("link").filter({ hasText: from });
    for (const row of [rowA, rowB]) {
      await expect(row).toHaveAttribute("data-unread", "true", { timeout: 45_000 });
      await expect(row.getByTestId("unread-count")).toHaveText(/^[1-9]\d*$/);
    }
    await expect(page.getByTestId("count-unassigned")).not.toHaveText("0");
    await screenshot(page, "inbox-team-unread");

    // B opens it first: it reads "Unassigned" there.
    await rowB.click();
    await expect(pageB).toHaveURL(/[?&]c=conv_/);
    const headerB = pageB.getByTestId("assignment");
    await expect(headerB.getByTestId("assignee")).toHaveText("Unassigned");
    const logB = pageB.getByRole("log", { name: /^Messages with / });
    await expect(logB.getByText(hello)).toBeVisible();

    // A opens it with the keyboard (j: next conversation; the URL holds the view and the conversation) and assigns it to themself.
    await page.locator("body").press("j");
    await expect(page).toHaveURL(/view=unassigned.*[?&]c=conv_|[?&]c=conv_.*view=unassigned/);
    const conversationId = new URL(page.url()).searchParams.get("c")!;
    const logA = page.getByRole("log", { name: /^Messages with / });
    await expect(logA.getByText(hello)).toBeVisible();
    await page.getByTestId("assignment").getByRole("button", { name: "Assign to me" }).click();
    await expect(page.getByTestId("assignment").getByTestId("assignee")).toHaveText("Assigned to you");
    // Assigning hands the thread to people: handoff is on.
    await expect(page.getByRole("switch", { name: "Human handoff" })).toHaveAttribute("aria-checked", "true");

    // The contact panel beside the thread (opened with Contact on this screen width).
    await page.getByRole("button", { name: "Contact", exact: true }).click();
    const contact = page.getByRole("complementary", { name: "Contact" });
    await expect(contact.getByText(from)).toBeVisible();
    await expect(contact.getByText("Simulated Customer (open)")).toBeVisible();
    await expect(contact.getByRole("link", { name: "Open the contact's page" })).toHaveAttribute("href", /\/inbox\/contacts\/ct_/);
    await screenshot(page, "inbox-team-contact");
    await contact.getByRole("button", { name: "Close the contact panel" }).click();
    await expect(contact).toHaveCount(0);

    // A private note.
    const noteText = `Customer is a VIP, do not promise a refund ${run}`;
    await page.getByRole("group", { name: "Composer mode" }).getByRole("button", { name: "Note" }).click();
    await page.getByRole("textbox", { name: "Private note" }).fill(noteText);
    await page.getByRole("button", { name: "Add note" }).click();
    const noteA = logA.getByRole("listitem", { name: "Private note" }).filter({ hasText: noteText });
    await expect(noteA).toBeVisible();
    await expect(noteA).toContainText("Private note, not sent to the customer");

    // The saved reply: "/" opens the picker, Enter inserts the rendered text, Ctrl+Enter sends.
    await page.getByRole("group", { name: "Composer mode" }).getByRole("button", { name: "Reply" }).click();
    const composer = page.getByRole("textbox", { name: "Message" });
    await composer.fill(`/ships-${run.slice(0, 3)}`);
    const picker = page.getByRole("listbox", { name: "Saved replies" });
    await expect(picker.getByRole("option").first()).toContainText(`/ships-${run}`);
    await expect(picker.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
    await screenshot(page, "inbox-team-picker");
    await composer.press("Enter");
    await expect(composer).toHaveValue(rendered);
    await screenshot(page, "inbox-team-composer");
    await composer.press("Control+Enter");
    await expect(composer).toHaveValue("");
    const replyA = logA.locator('li[data-direction="outbound"]').filter({ hasText: rendered });
    await expect(replyA.locator("[data-status]")).toHaveAttribute("data-status", /^(sent|delivered|read)$/, { timeout: 45_000 });
    await screenshot(page, "inbox-team-thread");

    // B sees all of it without a reload.
    await expect(headerB.getByTestId("assignee")).toHaveText(`Assigned to ${memberA}`);
    await expect(logB.getByRole("listitem", { name: "Private note" }).filter({ hasText: noteText })).toBeVisible();
    await expect(logB.locator('li[data-direction="outbound"]').filter({ hasText: rendered })).toBeVisible();
    // It left B's "Unassigned" list.
    await expect(pageB.getByRole("list", { name: "Conversations" }).getByRole("link").filter({ hasText: from })).toHaveCount(0);
    await screenshot(pageB, "inbox-team-member-b");
    await expectNoSeriousAxeViolation(pageB);

    // A's "Mine" view lists it.
    await page.getByRole("navigation", { name: "Inbox views" }).getByRole("link", { name: /^Mine/ }).click();
    await expect(page).toHaveURL(/view=mine/);
    await expect(page.getByRole("list", { name: "Conversations" }).getByRole("link").filter({ hasText: from })).toBeVisible();
    // The back button returns to "Unassigned".
    await page.goBack();
    await expect(page).toHaveURL(/view=unassigned/);
    await expectNoSeriousAxeViolation(page);

    // The customer's phone: the reply, never the note.
    const phoneTexts = async () => {
      const response = await page.request.get(
        `/api/dashboard/projects/${project.id}/sandbox/inbox?${new URLSearchParams({ channel_id: SANDBOX_CHANNEL_ID, from })}`,
      );
      return ((await response.json()) as { data: { text: string | null }[] }).data.map((message) => message.text ?? "");
    };
    await expect.poll(phoneTexts, { timeout: 30_000, message: "the customer received the saved reply" }).toContain(rendered);
    expect((await phoneTexts()).some((text) => text.includes(noteText))).toBe(false);
    // The phone page stayed open: the reply arrived there, the note did not.
    await expect(phone.getByRole("listitem", { name: "Message from the business" }).filter({ hasText: rendered })).toBeVisible({ timeout: 30_000 });
    await expect(phone.getByText(noteText)).toHaveCount(0);
    await phonePage.close();

    // The audit log: A assigned the conversation.
    await page.goto(`/projects/${project.id}/audit`);
    const assigned = page.locator('tr[data-audit-id][data-action="conversation.assigned"]');
    await expect(assigned).toHaveCount(1);
    await expect(assigned).toContainText("assigned a conversation");
    await expect(assigned.getByRole("link", { name: "a conversation" })).toHaveAttribute("href", new RegExp(`c=${conversationId}`));
    await screenshot(page, "inbox-team-audit");

    // A wide screen has the contact panel beside the thread from the start; a phone shows one pane at a time.
    await page.setViewportSize({ width: 1600, height: 900 });
    await page.goto(`${inbox}?view=all&c=${conversationId}`);
    await expect(page.getByRole("complementary", { name: "Contact" }).getByText(from)).toBeVisible();
    await expect(page.getByRole("log", { name: /^Messages with / }).getByText(rendered)).toBeVisible();
    await screenshot(page, "inbox-team-wide");
    await page.getByRole("button", { name: "Close the contact panel" }).click();
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole("list", { name: "Conversations" })).toBeHidden();
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
    await screenshot(page, "inbox-team-phone");
  } finally {
    await contextB.close();
  }
});
