import { expect as baseExpect, test } from "./support/test";
import { screenshot, signIn, warmUpAuth } from "./support/auth";
import { connectOwnNumber, joinSandboxTester, ownProject, SANDBOX_CHANNEL_ID } from "./support/projects";

/**
 * The Sandbox phone once the project owns a number (issue 32 item 13): a tester joined on the shared
 * sandbox first (as the README's block does); a fresh browser opens the phone on the project's own
 * channel as that tester, not as a new random number, and the join card says there is no code to send
 * without showing one. Switching to the shared sandbox shows the code, and the tester as joined.
 */

// A production build on a shared machine: allow slow answers, never sleep.
const expect = baseExpect.configure({ timeout: 30_000 });

test("on a dedicated channel the Sandbox phone opens as the joined tester and shows no join code", async ({ page, request }) => {
  test.setTimeout(240_000);
  await warmUpAuth(request);
  const run = Date.now().toString(36);
  // Unique per run (+1555 and 7 digits of the clock, offset from the other specs' numbers).
  const tester = `+1555${String(Date.now() + 7_000_000).slice(-7)}`;
  const project = await ownProject(request, `Sandbox dedicated e2e ${run}`);

  // 1. The tester joins on the shared sandbox, as the README's curl block does.
  await joinSandboxTester(request, project, tester);

  // 2. The project connects its own number (it becomes the project's channel).
  await signIn(page);
  const { id: channelId } = await connectOwnNumber(page.request, project.id, run);

  // 3. A fresh browser (no phone identity stored) opens on the own channel, as the tester.
  await page.goto(`/projects/${project.id}/sandbox`);
  const phone = page.getByRole("region", { name: "Sandbox phone" });
  await expect(phone.getByText(`you are ${tester}`)).toBeVisible();
  await expect(page.getByLabel("Customer number")).toHaveValue(tester);
  await expect(page.getByLabel("Channel", { exact: true })).toHaveValue(channelId);
  await expect(page.getByRole("heading", { name: "Your own channel" })).toBeVisible();
  await expect(page.getByText("there is no join code to send")).toBeVisible();
  await expect(page.getByTestId("join-message")).toHaveCount(0);
  await expect(page.getByText(`join ${project.join_code}`)).toHaveCount(0);

  // It writes as a customer of that number.
  const hello = `Hello own line ${run}`;
  await phone.getByLabel("Customer message").fill(hello);
  await phone.getByRole("button", { name: "Send as customer" }).click();
  await expect(phone.getByRole("listitem", { name: "Message from the customer" }).filter({ hasText: hello })).toContainText("Sent", { timeout: 45_000 });
  await screenshot(page, "sandbox-dedicated-channel");

  // 4. On the shared sandbox the code is there, and the same tester has joined.
  await page.getByLabel("Channel", { exact: true }).selectOption(SANDBOX_CHANNEL_ID);
  await expect(page.getByTestId("join-message")).toHaveText(`join ${project.join_code}`);
  await expect(page.getByText("Joined", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(phone.getByText(`you are ${tester}`)).toBeVisible();
  await screenshot(page, "sandbox-dedicated-switch-to-sandbox");
});
