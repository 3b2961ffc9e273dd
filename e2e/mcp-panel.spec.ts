import { expect, test, type APIRequestContext, type Locator, type Page } from "./support/test";
import { E2E_KEY } from "./env";
import { screenshot, signIn, warmUpAuth } from "./support/auth";

// The URL's Copy button writes to the clipboard; reading it back proves what the operator would paste.
test.use({ permissions: ["clipboard-read", "clipboard-write"] });

async function openKeys(page: Page) {
  await signIn(page);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "API keys", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(page.getByRole("region", { name: "API keys" })).toBeVisible();
}

/** Creates a secret key with one of the form's presets; answers its value (shown once, in the dialog). */
async function createKey(page: Page, name: string, preset: "Send only" | "Read only"): Promise<string> {
  await page.getByRole("button", { name: "Create key", exact: true }).click();
  const form = page.getByRole("dialog", { name: "Create an API key" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByRole("button", { name: preset, exact: true }).click();
  await expect(form.getByRole("button", { name: preset, exact: true })).toHaveAttribute("aria-pressed", "true");
  await form.getByRole("button", { name: "Create key", exact: true }).click();
  const once = page.getByRole("dialog", { name: "Copy your new key" });
  await expect(once.getByTestId("new-key-value")).toHaveText(/^svc_live_[0-9A-Za-z]{32}$/);
  const value = ((await once.getByTestId("new-key-value").textContent()) ?? "").trim();
  await once.getByRole("button", { name: "Done", exact: true }).click();
  await expect(once).toBeHidden();
  return value;
}

/** Picks the key whose option names `keyName` and waits for its tool list (the table is captioned with the key). */
async function pickKey(panel: Locator, keyName: string): Promise<Locator> {
  const picker = panel.getByLabel("Key", { exact: true });
  const value = await picker.locator("option", { hasText: keyName }).getAttribute("value");
  expect(value, `an option for ${keyName}`).toBeTruthy();
  await picker.selectOption(value!);
  const table = panel.getByRole("table", { name: `MCP tools ${keyName} may use`, exact: true });
  await expect(table).toBeVisible();
  return table;
}

const shownNames = (table: Locator) => table.locator("[data-tool-name]").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-tool-name")));

/** What the MCP server itself lists for this key: a tools/list JSON-RPC POST, as any MCP client sends it. */
async function mcpToolNames(request: APIRequestContext, key: string): Promise<string[]> {
  const response = await request.post("/api/v1/mcp", {
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = await response.json();
  return body.result.tools.map((tool: { name: string }) => tool.name);
}

test.describe("API keys → Use with an AI assistant (MCP)", () => {
  // Signs in (bcrypt), creates two keys and waits on several lists: the default minute is tight on a busy machine.
  test.setTimeout(180_000);

  test.beforeAll(async ({ request }) => {
    await warmUpAuth(request);
  });

  test("shows the endpoint and a keyless config, lists each key's tools, and agrees with tools/list", async ({ page, request, baseURL }) => {
    await openKeys(page);
    const run = Date.now().toString(36);
    const sender = `e2e mcp sender ${run}`;
    const reader = `e2e mcp reader ${run}`;
    const senderValue = await createKey(page, sender, "Send only");
    const readerValue = await createKey(page, reader, "Read only");

    const panel = page.getByRole("region", { name: "Use with an AI assistant (MCP)" });
    await panel.getByRole("button", { name: "Set up", exact: true }).click();
    await expect(panel.getByRole("button", { name: "Hide", exact: true })).toHaveAttribute("aria-expanded", "true");

    // The endpoint on this server's origin, copyable; the config names a placeholder, never a key.
    const url = `${baseURL}/api/v1/mcp`;
    await expect(panel).toContainText(url);
    await panel.getByRole("button", { name: "Copy MCP server URL", exact: true }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await expect(panel).toContainText('"Authorization": "Bearer <your key>"');
    await expect(panel).toContainText('"type": "http"');
    const panelText = (await panel.textContent()) ?? "";
    for (const value of [senderValue, readerValue, E2E_KEY]) expect(panelText).not.toContain(value);
    await expect(panel).toContainText("Tools follow the key's scopes");

    // The send-only key: send_message, which acts and needs messages:send.
    const sent = await pickKey(panel, sender);
    const send = sent.locator('[data-tool-name="send_message"]');
    await expect(send).toBeVisible();
    await expect(send).toContainText("messages:send");
    await expect(send).toContainText("Takes action");
    expect(await shownNames(sent)).toEqual(await mcpToolNames(request, senderValue));
    await screenshot(page, "keys-mcp-panel");

    // The read-only key: read tools, no send_message.
    const read = await pickKey(panel, reader);
    await expect(read.locator('[data-tool-name="list_conversations"]')).toContainText("Read-only");
    await expect(read.locator('[data-tool-name="send_message"]')).toHaveCount(0);
    const readNames = await shownNames(read);
    expect(readNames).not.toContain("send_message");
    expect(readNames).toEqual(await mcpToolNames(request, readerValue));

    // The e2e server's own key (`*`): the panel lists exactly what the MCP endpoint answers for it.
    const everything = await pickKey(panel, "Bootstrap key");
    const shown = await shownNames(everything);
    expect(shown).toContain("send_message");
    expect(shown).toEqual(await mcpToolNames(request, E2E_KEY));
  });
});
