import { expect, test } from "./support/test";
import { screenshot, signIn } from "./support/auth";

test.describe("members", () => {
  // Three bcrypt passwords (accept, two sign-ins) on a shared 2-core machine: give it room.
  test.setTimeout(150_000);

  test("invite a developer, who joins from the link; then re-role and remove them", async ({ page, browser, consoleErrors }) => {
    const email = `dev-${Date.now()}@e2e.svc.test`;
    const password = "e2e-Developer-Password-1";
    const name = "E2E Developer";

    await signIn(page);
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Members", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Members" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Members" }).getByRole("listitem").filter({ hasText: "owner@e2e.svc.test" })).toContainText("You");

    await page.getByRole("button", { name: "Invite member", exact: true }).click();
    const form = page.getByRole("dialog", { name: "Invite a member" });
    await form.getByLabel("Email", { exact: true }).fill(email);
    await form.getByLabel("Role", { exact: true }).selectOption("developer");
    await expect(form).toContainText("Everything a viewer can");
    // The signed-in owner may hand out every role, owner included.
    await expect(form.getByLabel("Role", { exact: true }).locator("option")).toHaveText(["Viewer", "Developer", "Admin", "Owner"]);
    await form.getByRole("button", { name: "Create invitation", exact: true }).click();

    const created = page.getByRole("dialog", { name: "Invitation created" });
    await expect(created).toContainText(`Send this link to ${email}; it works once and expires in 7 days`);
    const link = ((await created.getByTestId("invitation-url").textContent()) ?? "").trim();
    expect(link).toMatch(/\/invite\/[0-9A-Za-z]+$/);
    await created.getByRole("button", { name: "Done", exact: true }).click();
    await expect(created).toBeHidden();
    expect(await page.content()).not.toContain(link);
    await expect(page.getByRole("region", { name: "Pending invitations" }).getByRole("listitem").filter({ hasText: email })).toContainText("Developer");
    await screenshot(page, "members-invitation-pending");

    // The invitee: a separate, signed-out browser.
    const guest = await browser.newContext();
    consoleErrors.watch(guest);
    try {
      const invitee = await guest.newPage();
      await invitee.goto(link);
      await expect(invitee.getByRole("heading", { name: /Join .+ as a developer/ })).toBeVisible();
      await expect(invitee.getByText(email)).toBeVisible();
      await screenshot(invitee, "invite");
      await invitee.getByLabel("Your name", { exact: true }).fill(name);
      await invitee.getByLabel("Password", { exact: true }).fill(password);
      await invitee.getByRole("button", { name: /^Join / }).click();
      await invitee.waitForURL(/\/projects\//);

      // And with the sign-in form, as they will next time. A fresh page: the project page may still be
      // loading, and once signed out its data calls redirect to sign-in, racing our own navigation.
      await invitee.close();
      await guest.clearCookies();
      const again = await guest.newPage();
      await signIn(again, { email, password });
      await expect(again.getByRole("heading", { name: "Readiness" })).toBeVisible();
      await expect(again.getByRole("button", { name: /Account menu/ })).toContainText(name);
    } finally {
      await guest.close();
    }

    // Back as the owner: the invitation became a member.
    await page.reload();
    const members = page.getByRole("list", { name: "Members" });
    const row = members.getByRole("listitem").filter({ hasText: email });
    await expect(row).toContainText(name);
    const role = page.getByLabel(`Role of ${email}`, { exact: true });
    await expect(role).toHaveValue("developer");
    await expect(page.getByRole("region", { name: "Pending invitations" }).getByText(email)).toHaveCount(0);
    await screenshot(page, "members");

    // An organization keeps one owner: when the admin is the only one, demoting them is refused, clearly.
    const ownerRole = page.getByLabel("Role of owner@e2e.svc.test", { exact: true });
    const owners = await members.locator("select").evaluateAll((selects) => selects.filter((select) => (select as HTMLSelectElement).value === "owner").length);
    if (owners === 1) {
      consoleErrors.allowFailedResource(409, /\/api\/dashboard\/projects\/[^/]+\/members\/[^/]+$/);
      await ownerRole.selectOption("admin");
      await expect(page.getByRole("region", { name: "Notifications" })).toContainText("This is the organization's only owner");
      await expect(ownerRole).toHaveValue("owner");
    }

    await role.selectOption("viewer");
    await expect(page.getByRole("region", { name: "Notifications" })).toContainText(`${name} is now viewer`);
    await page.reload();
    await expect(page.getByLabel(`Role of ${email}`, { exact: true })).toHaveValue("viewer");

    await row.getByRole("button", { name: `Remove ${email}`, exact: true }).click();
    const confirm = page.getByRole("dialog", { name: `Remove ${name}?` });
    await expect(confirm).toContainText("lose access to every project");
    await confirm.getByRole("button", { name: "Remove member", exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(row).toHaveCount(0);
  });
});
