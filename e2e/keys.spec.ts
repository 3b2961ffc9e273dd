import { expect, test, type Page } from "./support/test";
import { screenshot, signIn } from "./support/auth";

// The Copy button writes to the clipboard; reading it back proves what the operator would paste.
test.use({ permissions: ["clipboard-read", "clipboard-write"] });

async function openKeys(page: Page) {
  await signIn(page);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "API keys", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  // The demo project always has its bootstrap key, so the list (not the empty state) shows.
  await expect(page.getByRole("region", { name: "API keys" })).toBeVisible();
}

test.describe("API keys", () => {
  // Each test signs in (bcrypt) and walks several dialogs: the default minute is tight on a busy machine.
  test.setTimeout(120_000);

  test("a send-only secret key is shown once, authenticates without extra scopes, and stops working when revoked", async ({ page, request }) => {
    await openKeys(page);
    const name = `e2e send-only ${Date.now()}`;

    await page.getByRole("button", { name: "Create key", exact: true }).click();
    const form = page.getByRole("dialog", { name: "Create an API key" });
    await form.getByLabel("Name", { exact: true }).fill(name);
    await expect(form.getByRole("radio", { name: /^Secret/ })).toBeChecked();
    await form.getByRole("button", { name: "Send only", exact: true }).click();
    await expect(form.getByRole("button", { name: "Send only", exact: true })).toHaveAttribute("aria-pressed", "true");
    await expect(form.getByRole("checkbox", { name: "messages:send", exact: true })).toBeChecked();
    await expect(form.getByRole("checkbox", { name: "conversations:read", exact: true })).not.toBeChecked();
    await expect(form.getByRole("checkbox", { name: "limits:read", exact: true })).not.toBeChecked();
    await screenshot(page, "keys-create-dialog");
    await form.getByRole("button", { name: "Create key", exact: true }).click();

    const once = page.getByRole("dialog", { name: "Copy your new key" });
    await expect(once).toContainText("You won't be able to see this key again");
    const value = ((await once.getByTestId("new-key-value").textContent()) ?? "").trim();
    expect(value).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    await once.getByRole("button", { name: "Copy", exact: true }).click();
    await expect(once.getByRole("button", { name: "Copied", exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
    await screenshot(page, "keys-shown-once");

    // It authenticates (not 401) but only carries messages:send.
    const auth = { Authorization: `Bearer ${value}` };
    const scoped = await request.get("/api/v1/conversations", { headers: auth });
    expect(scoped.status()).toBe(403);
    expect((await scoped.json()).error).toBe("insufficient_scope");

    await once.getByRole("button", { name: "Done", exact: true }).click();
    await expect(once).toBeHidden();
    expect(await page.content()).not.toContain(value);

    const display = `${value.slice(0, 13)}…${value.slice(-4)}`;
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row).toContainText(display);
    await expect(row).toContainText("messages:send");
    await expect(row).toContainText("Never");
    await expect(row).toContainText("Active");
    await screenshot(page, "keys-list");

    await row.getByRole("button", { name: `Revoke ${name}`, exact: true }).click();
    const confirm = page.getByRole("dialog", { name: `Revoke ${name} (${display})?` });
    await expect(confirm).toContainText("Requests using it will fail immediately");
    await confirm.getByRole("button", { name: "Revoke key", exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole("region", { name: "Notifications" })).toContainText(`${name} revoked`);
    await expect(row).toContainText("Revoked");
    await expect(row.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);

    const revoked = await request.get("/api/v1/conversations", { headers: auth });
    expect(revoked.status()).toBe(401);
  });

  test("a new key opens on the least-privilege preset, is created with only messages:send, and shows its value with the focus on Copy", async ({
    page,
    request,
  }) => {
    await openKeys(page);
    const name = `e2e default preset ${Date.now()}`;

    await page.getByRole("button", { name: "Create key", exact: true }).click();
    const form = page.getByRole("dialog", { name: "Create an API key" });
    // Untouched form: Send only is the preset pressed, and each preset says what it can do.
    const presets = form.getByRole("group", { name: "Presets" });
    await expect(presets.getByRole("button")).toHaveText([/^Send only/, /^Read only/, /^Full access/]);
    await expect(presets.getByRole("button", { name: "Send only", exact: true })).toHaveAttribute("aria-pressed", "true");
    await expect(presets.getByRole("button", { name: "Full access", exact: true })).toHaveAttribute("aria-pressed", "false");
    await expect(presets.getByRole("button", { name: "Send only", exact: true })).toHaveAccessibleDescription(/^Send messages and read nothing/);
    await expect(presets.getByRole("button", { name: "Read only", exact: true })).toHaveAccessibleDescription(/^Read every resource and change nothing/);
    await expect(presets.getByRole("button", { name: "Full access", exact: true })).toHaveAccessibleDescription(/^Everything, including scopes added later/);
    await expect(form.getByRole("checkbox", { name: "messages:send", exact: true })).toBeChecked();
    await expect(form.getByRole("checkbox", { name: "conversations:read", exact: true })).not.toBeChecked();
    await screenshot(page, "keys-create-default-preset");
    await form.getByLabel("Name", { exact: true }).fill(name);
    await form.getByRole("button", { name: "Create key", exact: true }).click();

    // The secret opens with the keyboard on Copy: Enter copies it.
    const once = page.getByRole("dialog", { name: "Copy your new key" });
    const copy = once.getByRole("button", { name: "Copy", exact: true });
    await expect(copy).toBeFocused();
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Copy");
    await screenshot(page, "keys-created-focus-on-copy");
    const value = ((await once.getByTestId("new-key-value").textContent()) ?? "").trim();
    await page.keyboard.press("Enter");
    await expect(once.getByRole("button", { name: "Copied", exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);

    // What the server gave the key made through the untouched form: exactly messages:send.
    const identity = await request.get("/api/v1/identity", { headers: { Authorization: `Bearer ${value}` } });
    expect(identity.status(), await identity.text()).toBe(200);
    expect(((await identity.json()) as { api_key: { scopes: string[] } }).api_key.scopes).toEqual(["messages:send"]);
    await once.getByRole("button", { name: "Done", exact: true }).click();
    await expect(once).toBeHidden();
  });

  test("a publishable key keeps its allowed origins and refuses ones that are not origins", async ({ page, consoleErrors }) => {
    await openKeys(page);
    const name = `e2e storefront ${Date.now()}`;

    await page.getByRole("button", { name: "Create key", exact: true }).click();
    const form = page.getByRole("dialog", { name: "Create an API key" });
    await form.getByLabel("Name", { exact: true }).fill(name);
    await form.getByRole("radio", { name: /^Publishable/ }).check();
    await expect(form.getByRole("button", { name: "Send only" })).toHaveCount(0);

    // A path is not an origin: the server's message shows under the list (the browser logs that 400).
    consoleErrors.allowFailedResource(400, /\/api\/dashboard\/projects\/[^/]+\/keys$/);
    await form.getByLabel("Allowed origin 1", { exact: true }).fill("https://shop.example.com/checkout");
    await form.getByRole("button", { name: "Create key", exact: true }).click();
    await expect(form.getByRole("alert").filter({ hasText: "is not an origin" })).toBeVisible();

    await form.getByLabel("Allowed origin 1", { exact: true }).fill("https://shop.example.com");
    await form.getByRole("button", { name: "Add origin", exact: true }).click();
    await form.getByLabel("Allowed origin 2", { exact: true }).fill("http://localhost:3000");
    await form.getByRole("button", { name: "Create key", exact: true }).click();

    const once = page.getByRole("dialog", { name: "Copy your new key" });
    const value = ((await once.getByTestId("new-key-value").textContent()) ?? "").trim();
    expect(value).toMatch(/^svc_pub_[0-9A-Za-z]{32}$/);
    await once.getByRole("button", { name: "Done", exact: true }).click();
    await expect(once).toBeHidden();

    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row).toContainText("Publishable");
    await expect(row).toContainText("https://shop.example.com");
    await expect(row).toContainText("http://localhost:3000");
    expect(await page.content()).not.toContain(value);
  });
});
