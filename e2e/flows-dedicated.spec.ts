import { expect as baseExpect, test } from "./support/test";
import { screenshot, signIn, warmUpAuth } from "./support/auth";
import { connectOwnNumber, joinSandboxTester, ownProject, SANDBOX_CHANNEL_ID } from "./support/projects";

/**
 * A Flow sent to a sandbox tester once the project owns a number (issue 32 items 3 and 4): a tester
 * joined on the shared sandbox, then the project connected its own PLATFORM_A number. The editor says
 * where Publish puts the flow and where it is published, by the channel's name; "Try it" completes
 * without the optional dropdown nobody touched; "Send to a sandbox tester" offers the shared sandbox,
 * says it will publish the version there first, does so, and the tester's phone receives the flow,
 * opens it and submits it.
 */

// A production build on a shared machine, and a publish that goes through the job queue: allow slow answers, never sleep.
const expect = baseExpect.configure({ timeout: 30_000 });

test("a project with its own number sends a published flow to its sandbox tester, and Try it invents nothing", async ({ page, request }) => {
  test.setTimeout(300_000);
  await warmUpAuth(request);
  const run = Date.now().toString(36);
  // Unique per run (+1555 and 7 digits of the clock, offset from the other specs' numbers).
  const tester = `+1555${String(Date.now() + 3_000_000).slice(-7)}`;
  const project = await ownProject(request, `Flows dedicated e2e ${run}`);

  // 1. The tester joins on the shared sandbox; then the project connects its own number.
  await joinSandboxTester(request, project, tester);
  await signIn(page);
  const { displayName: ownLine, phoneNumber: ownNumber } = await connectOwnNumber(page.request, project.id, run);

  // 2. A new flow: before publishing, the editor says Publish puts it on the own number.
  await page.goto(`/projects/${project.id}/flows`);
  await page.getByRole("button", { name: "New flow" }).first().click();
  const created = page.getByRole("dialog", { name: "New flow" });
  await created.getByLabel("Name", { exact: true }).fill(`Survey ${run}`);
  await created.getByRole("button", { name: "Create flow" }).click();
  await expect(page).toHaveURL(/\/flows\/[^/]+$/);
  const flowUrl = page.url();
  const location = page.getByTestId("publish-location");
  await expect(location).toContainText(`Publish puts it on ${ownLine} (${ownNumber}), your project's own number.`);

  // 3. An optional dropdown on the first screen, saved; Try it leaves it (and the untouched opt-in) out of the completion.
  const first = page.getByRole("region", { name: "Screen 1" });
  await first.getByLabel("Type of the new field on Screen 1").selectOption("dropdown");
  await first.getByRole("button", { name: "Add field" }).click();
  await expect(first.getByRole("group", { name: "Field 3" }).getByLabel("Name", { exact: true })).toHaveValue("dropdown_1");
  await page.keyboard.press("Control+s");
  await expect(page.getByText("All changes saved", { exact: true })).toBeVisible();
  const preview = page.getByRole("region", { name: "Flow preview" });
  await page.getByRole("switch", { name: "Try it" }).click();
  await preview.getByLabel("Full name").fill("Ana Trial");
  await preview.getByLabel("Email").fill(`ana.${run}@example.com`);
  await preview.getByRole("button", { name: "Continue" }).click();
  await preview.getByRole("button", { name: "Submit" }).click();
  const result = preview.getByRole("status").filter({ hasText: "The flow completes with" });
  await expect(result).toContainText("full_name");
  await expect(result).toContainText("Ana Trial");
  await expect(result).not.toContainText("dropdown_1");
  await expect(result).not.toContainText("marketing_opt_in");
  await screenshot(page, "flows-dedicated-try-it");
  await page.getByRole("switch", { name: "Try it" }).click();

  // 4. Publish: it is published on the own number, by name, with its business account beside it.
  await page.getByRole("button", { name: "Publish" }).click();
  const header = page.locator("header").filter({ has: page.getByRole("heading", { level: 1 }) });
  await expect(header.locator('[data-meta-status="PUBLISHED"]')).toBeVisible({ timeout: 90_000 });
  await expect(location).toContainText(`Published on ${ownLine} (${ownNumber}).`);
  await expect(location).toContainText(`Business account waba_${run}.`);

  // 5. Send to the sandbox tester: from the shared sandbox, which the dialog says it publishes on first.
  await page.getByRole("button", { name: "Send to a sandbox tester" }).click();
  const send = page.getByRole("dialog", { name: "Send to a sandbox tester" });
  const testerSelect = send.getByLabel("Tester");
  await testerSelect.selectOption(
    (await testerSelect
      .locator("option")
      .filter({ hasText: tester.slice(-7) })
      .getAttribute("value"))!,
  );
  const from = send.getByLabel("Send from");
  await expect(from).toHaveValue(SANDBOX_CHANNEL_ID);
  await expect(from.locator("option")).toHaveText(["the shared sandbox (publish there first)", `${ownLine} (${ownNumber})`]);
  await expect(send.getByRole("note")).toContainText(`is published on ${ownLine} (${ownNumber}), under another business account than the shared sandbox.`);
  await expect(send.getByRole("note")).toContainText("Sending publishes version 1 on the shared sandbox first");
  await send.getByLabel(/^Button text/).fill("Take survey");
  await screenshot(page, "flows-dedicated-send-dialog");
  await send.getByRole("button", { name: "Publish there and send" }).click();
  await expect(page.getByText(/^Sent to .* from the shared sandbox$/)).toBeVisible();
  await expect(send).toHaveCount(0);
  await expect(location).toContainText("Also published on the shared sandbox, version 1.");
  await screenshot(page, "flows-dedicated-published-where");

  // 6. The tester's phone (on the shared sandbox) has the flow: it opens and is submitted.
  await page.goto(`/projects/${project.id}/sandbox`);
  await page.getByLabel("Channel", { exact: true }).selectOption(SANDBOX_CHANNEL_ID);
  const number = page.getByLabel("Customer number");
  await number.fill(tester);
  await number.press("Enter");
  const phone = page.getByRole("region", { name: "Sandbox phone" });
  await phone.getByRole("button", { name: "Take survey" }).click();
  const details = phone.getByRole("dialog", { name: "Your details" });
  await details.getByLabel("Full name").fill("Ana Tester");
  await details.getByLabel("Email").fill(`tester.${run}@example.com`);
  await details.getByRole("button", { name: "Continue" }).click();
  await phone.getByRole("dialog", { name: "Confirm" }).getByRole("button", { name: "Submit" }).click();
  await expect(phone.getByText("Submitted", { exact: true })).toBeVisible({ timeout: 45_000 });
  await screenshot(page, "flows-dedicated-tester-submitted");

  // 7. The submission is on the flow, without the dropdown nobody picked.
  await page.goto(flowUrl);
  await page.getByRole("tab", { name: "Submissions" }).click();
  const submission = page.getByRole("region", { name: "Submissions" }).getByRole("row").filter({ hasText: "Ana Tester" });
  await expect(submission).toContainText(/Validated|Forwarded/, { timeout: 60_000 });
  await expect(submission).not.toContainText("dropdown_1");
});
