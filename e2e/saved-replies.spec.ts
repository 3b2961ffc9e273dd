import AxeBuilder from "@axe-core/playwright";
import { expect as baseExpect, test } from "./support/test";
import { screenshot, signIn, warmUpAuth } from "./support/auth";
import { ownProject } from "./support/projects";

/** The saved replies settings page (issue 37 item 4): reached from the project nav and the inbox; list, create, edit, delete with confirmation. */

const expect = baseExpect.configure({ timeout: 30_000 });

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  await warmUpAuth(request);
});

test("create, edit and delete a saved reply; a taken shortcut is refused in words", async ({ page, request, consoleErrors }) => {
  test.setTimeout(150_000);
  const run = String(Date.now()).slice(-7);
  const project = await ownProject(request, `Saved replies ${run}`);
  await signIn(page);

  // From the inbox's header to the page, and the project nav names it too.
  await page.goto(`/projects/${project.id}/inbox`);
  await page.getByRole("main").getByRole("link", { name: "Saved replies" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Saved replies" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Saved replies", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(page.getByText("No saved replies yet")).toBeVisible();

  const create = async (shortcut: string, title: string, body: string) => {
    await page.getByRole("button", { name: "New saved reply" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New saved reply" });
    await dialog.getByLabel("Shortcut").fill(shortcut);
    await dialog.getByLabel("Title").fill(title);
    await dialog.getByLabel("Text").fill(body);
    await dialog.getByRole("button", { name: "Create saved reply" }).click();
    return dialog;
  };

  const first = await create(`hours-${run}`, "Opening hours", "Hi {{contact.name}}, we are open 9 to 5. {{member.name}}");
  await expect(first).toBeHidden();
  const list = page.getByRole("list", { name: "Saved replies" });
  await expect(list.getByRole("listitem").filter({ hasText: `/hours-${run}` })).toContainText("Opening hours");
  await screenshot(page, "saved-replies");
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "best-practice"]).analyze();
  baseExpect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  // The same shortcut again: 409, said next to the field.
  consoleErrors.allowFailedResource(409, /\/saved-replies$/);
  const duplicate = await create(`hours-${run}`, "Again", "Same shortcut");
  await expect(duplicate.getByText("Another saved reply has this shortcut: pick another.")).toBeVisible();
  await duplicate.getByRole("button", { name: "Cancel" }).click();

  // Edit.
  await list.getByRole("button", { name: `Edit /hours-${run}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit /hours-${run}` });
  await edit.getByLabel("Title").fill("Opening hours (winter)");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(list.getByRole("listitem").filter({ hasText: `/hours-${run}` })).toContainText("Opening hours (winter)");

  // Delete, after a confirmation that says what happens.
  await list.getByRole("button", { name: `Delete /hours-${run}` }).click();
  const confirm = page.getByRole("dialog", { name: `Delete /hours-${run}?` });
  await expect(confirm).toContainText("can no longer pick it in the inbox");
  await confirm.getByRole("button", { name: "Delete saved reply" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText("No saved replies yet")).toBeVisible();
});
