import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect as baseExpect, test, type APIRequestContext, type Page } from "./support/test";
import { E2E_KEY } from "./env";
import { E2E_ADMIN, screenshot, signIn, warmUpAuth, type Credentials } from "./support/auth";

/**
 * `svc login` end to end: the real CLI (cli/login.ts) against the e2e server, its printed link opened
 * in Chromium by the signed-in admin, who picks the project and scopes on /cli/confirm and approves
 * (or denies). The CLI stores the key (cli/credentials.ts) under a temporary XDG_CONFIG_HOME.
 */

// A production build on a shared machine, a CLI started through tsx, and its 2 s polls.
const expect = baseExpect.configure({ timeout: 30_000 });
const REPO = path.resolve(import.meta.dirname, "..");
const bootstrap = { Authorization: `Bearer ${E2E_KEY}` };
/** The host name as the server keeps it (lib/domain/cli-login cleanClientHost). */
const HOST =
  os
    .hostname()
    .replace(/[^A-Za-z0-9._-]/g, "")
    .slice(0, 64) || "unknown host";

interface Finished {
  code: number;
  stdout: string;
  stderr: string;
}

let home: string;
const children: ChildProcess[] = [];

test.beforeAll(async ({ request }) => {
  await warmUpAuth(request);
});
test.beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "svc-e2e-cli-login-"));
});
test.afterEach(() => {
  // A failed test may leave its CLI polling: stop exactly the ones this file started.
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill();
  fs.rmSync(home, { recursive: true, force: true });
});

const configHome = () => path.join(home, "config");
const credentialsFile = () => path.join(configHome(), "svc", "credentials.json");
/**
 * No key or URL from the environment: the CLI must use what `login` stored. Playwright's FORCE_COLOR
 * is dropped so Node does not warn on stderr about NO_COLOR (the tests expect an empty stderr).
 */
function cliEnv(): NodeJS.ProcessEnv {
  const { FORCE_COLOR: _forced, ...inherited } = process.env;
  return { ...inherited, NO_COLOR: "1", SVC_API_URL: "", SVC_API_KEY: "", HOME: home, XDG_CONFIG_HOME: configHome() };
}
const cliArgs = (args: string[]) => ["--import", "tsx", "cli/index.ts", ...args];

function cli(args: string[]): Promise<Finished> {
  return new Promise((resolve) => {
    execFile(process.execPath, cliArgs(args), { cwd: REPO, env: cliEnv(), timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** `svc login --url <server>` in its own process: `prompt` resolves with what it prints for the operator, `done` when it exits. */
function startLogin(server: string): { prompt: Promise<{ url: string; userCode: string }>; done: Promise<Finished> } {
  const child = spawn(process.execPath, cliArgs(["login", "--url", server]), { cwd: REPO, env: cliEnv() });
  children.push(child);
  let stdout = "";
  let stderr = "";
  const done = new Promise<Finished>((resolve) => child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr })));
  const prompt = new Promise<{ url: string; userCode: string }>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /^\s+(https?:\/\/\S+\/cli\/confirm\?code=\S+)$/m.exec(stdout)?.[1];
      const userCode = /shows this code: ([A-Z]{4}-[A-Z]{4})/.exec(stdout)?.[1];
      if (url && userCode) resolve({ url, userCode });
    });
    // A CLI that exits before printing its code fails the test with its own words, not a timeout.
    void done.then((finished) => reject(new Error(`svc login exited ${finished.code} before printing a code:\n${finished.stdout}\n${finished.stderr}`)));
  });
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return { prompt, done };
}

/** Opens the CLI's link signed out: sign-in comes first and leads back to the same link, code included. */
async function openSignedIn(page: Page, url: string, credentials: Credentials = E2E_ADMIN) {
  await page.goto(url);
  await page.waitForURL(/\/sign-in\?callbackUrl=/);
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(new URL(url).pathname + new URL(url).search);
  await page.getByLabel("Email", { exact: true }).fill(credentials.email);
  await page.getByLabel("Password", { exact: true }).fill(credentials.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((current) => current.href === url);
}

async function ownProject(request: APIRequestContext, name: string): Promise<{ id: string; name: string }> {
  const created = await request.post("/api/v1/projects", { headers: bootstrap, data: { name } });
  expect(created.ok(), await created.text()).toBe(true);
  return (await created.json()) as { id: string; name: string };
}

test.describe("svc login through the dashboard", () => {
  test.setTimeout(180_000);

  test("approving stores a private key with exactly the chosen scopes; config export uses it and logout revokes it", async ({ page, request, baseURL }) => {
    const project = await ownProject(request, `CLI login ${String(Date.now()).slice(-7)}`);
    const login = startLogin(baseURL!);
    const { url, userCode } = await login.prompt;
    expect(url).toBe(`${baseURL}/cli/confirm?code=${userCode}`);

    await openSignedIn(page, url);
    await expect(page.getByRole("heading", { level: 1, name: "Confirm CLI login" })).toBeVisible();
    await expect(page.getByTestId("cli-user-code")).toHaveText(userCode);
    // The host and address that asked, and the expiry: the operator's check that this login is theirs.
    const details = page.getByTestId("cli-request-details");
    await expect(details).toContainText(`Requested by${HOST}`);
    await expect(details).toContainText(/From address\S+/);
    await expect(details).toContainText(/Code expiresin (10|9|8) min/);

    // The project picker lists the operator's projects; the key goes to the one picked.
    await page.getByLabel("Project", { exact: true }).selectOption({ label: project.name });

    // The CLI's own preset is the default, then adjusted: no config:write, plus limits:read.
    await expect(page.getByRole("button", { name: "CLI", exact: true })).toHaveAttribute("aria-pressed", "true");
    for (const scope of ["config:read", "config:write", "projects:read"]) await expect(page.getByRole("checkbox", { name: scope, exact: true })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: "conversations:read", exact: true })).not.toBeChecked();
    await page.getByRole("checkbox", { name: "config:write", exact: true }).uncheck();
    await page.getByRole("checkbox", { name: "limits:read", exact: true }).check();
    const granted = page.getByTestId("granted-scopes");
    await expect(granted).toContainText("exactly these 3 scopes");
    await expect(granted.getByRole("listitem")).toHaveText(["projects:read", "config:read", "limits:read"]);
    await screenshot(page, "cli-login-confirm");

    await page.getByRole("button", { name: "Approve", exact: true }).click();
    const outcome = page.getByTestId("cli-outcome");
    await expect(outcome.getByRole("heading", { name: "Return to your terminal" })).toBeVisible();
    await expect(outcome).toContainText(project.name);
    const display = ((await page.getByTestId("cli-key-display").textContent()) ?? "").trim();
    expect(display).toMatch(/^svc_live_\w{4}…\w{4}$/);
    await screenshot(page, "cli-login-approved");

    const finished = await login.done;
    expect(finished.stderr).toBe("");
    expect(finished.code).toBe(0);
    expect(finished.stdout).toContain(`Logged in to ${baseURL}: key ${display} in project ${project.id}, scopes config:read,limits:read,projects:read.`);

    // The file: private, for this server and project, holding the key the page showed only as its display.
    const file = credentialsFile();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(file, "utf8")) as { url: string; key: string; key_id: string; project_id: string };
    expect(stored).toEqual({
      url: `${baseURL}/api/v1`,
      key: expect.stringMatching(/^svc_live_[0-9A-Za-z]{32}$/),
      key_id: expect.any(String),
      project_id: project.id,
    });
    expect(`${stored.key.slice(0, 13)}…${stored.key.slice(-4)}`).toBe(display);
    expect(finished.stdout).not.toContain(stored.key);
    expect(await page.content()).not.toContain(stored.key);

    // The key works, with exactly those scopes: a scope left out is a 403 on its route.
    const auth = { Authorization: `Bearer ${stored.key}` };
    const identity = await request.get("/api/v1/identity", { headers: auth });
    expect(identity.ok(), await identity.text()).toBe(true);
    expect(await identity.json()).toMatchObject({
      project: { id: project.id },
      api_key: { id: stored.key_id, name: `CLI on ${HOST}`, display, scopes: ["config:read", "limits:read", "projects:read"] },
    });
    expect((await request.get("/api/v1/limits", { headers: auth })).status()).toBe(200);
    const refused = await request.get("/api/v1/conversations", { headers: auth });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "insufficient_scope", required_scope: "conversations:read" });

    // A later command finds the stored login by itself (no --url, --key or SVC_API_*).
    const exported = await cli(["config", "export", "--format", "json"]);
    expect(exported.stderr).toBe("");
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({ version: 1, project_id: project.id, project: { name: project.name } });

    // The code is spent: opening the link again says so.
    await page.reload();
    await expect(page.getByTestId("cli-outcome").getByRole("heading", { name: "This code was already used" })).toBeVisible();

    const out = await cli(["logout"]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Revoked key ${display}`);
    expect(fs.existsSync(file)).toBe(false);
    expect((await request.get("/api/v1/identity", { headers: auth })).status()).toBe(401);
  });

  test("denying stops the CLI with its message and stores nothing; unknown and malformed codes are asked for again", async ({
    page,
    baseURL,
    consoleErrors,
  }) => {
    const login = startLogin(baseURL!);
    const { url, userCode } = await login.prompt;
    await openSignedIn(page, url);
    await expect(page.getByTestId("cli-user-code")).toHaveText(userCode);

    await page.getByRole("button", { name: "Deny", exact: true }).click();
    await expect(page.getByTestId("cli-outcome").getByRole("heading", { name: "Login denied" })).toBeVisible();
    await screenshot(page, "cli-login-denied");

    const finished = await login.done;
    expect(finished.code).toBe(1);
    expect(finished.stderr).toContain("Login denied in the dashboard. Nothing was stored.");
    expect(fs.existsSync(credentialsFile())).toBe(false);

    // The same link later: the decision stands.
    await page.reload();
    await expect(page.getByTestId("cli-outcome").getByRole("heading", { name: "This login was denied" })).toBeVisible();

    // A code nobody issued: the server's words (a 404, in the browser's log), and the field to type the right one.
    consoleErrors.allowFailedResource(404, /\/api\/dashboard\/cli\/device-codes\/BCDF-GHJK$/);
    await page.goto("/cli/confirm?code=bcdf-ghjk");
    await expect(page.getByRole("alert").filter({ hasText: "No login code like that" })).toBeVisible();
    await expect(page.getByLabel("Login code", { exact: true })).toHaveValue("BCDF-GHJK");

    // Not a code at all, then typed by hand: the page puts the code in the URL and shows it.
    await page.goto("/cli/confirm?code=hello");
    await expect(page.getByRole("alert").filter({ hasText: "That is not a login code" })).toBeVisible();
    await page.getByLabel("Login code", { exact: true }).fill(userCode.toLowerCase().replace("-", ""));
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.waitForURL(`**/cli/confirm?code=${userCode}`);
    await expect(page.getByTestId("cli-outcome").getByRole("heading", { name: "This login was denied" })).toBeVisible();
  });

  test("a viewer is told their role cannot create keys, the server refuses them in words, and they can still deny", async ({
    page,
    browser,
    request,
    baseURL,
    consoleErrors,
  }) => {
    // A viewer of the demo organization, invited by the admin and joined through the invitation API.
    const identity = (await (await request.get("/api/v1/identity", { headers: bootstrap })).json()) as { project: { id: string } };
    await signIn(page);
    const viewer = { email: `viewer-${Date.now()}@e2e.svc.test`, password: "e2e-Viewer-Password-1" };
    const invited = await page.request.post(`/api/dashboard/projects/${identity.project.id}/members`, { data: { email: viewer.email, role: "viewer" } });
    expect(invited.ok(), await invited.text()).toBe(true);
    const token = new URL(((await invited.json()) as { url: string }).url).pathname.split("/").pop()!;
    // A second browser of its own (absolute URLs: it does not take the config's baseURL).
    const guest = await browser.newContext();
    consoleErrors.watch(guest);
    try {
      const joined = await guest.request.post(`${baseURL}/api/dashboard/invitations/${token}/accept`, {
        data: { name: "CLI Viewer", password: viewer.password },
      });
      expect(joined.ok(), await joined.text()).toBe(true);

      // A code as the CLI would start it (the CLI itself is covered above).
      const started = await request.post("/api/cli/device-codes", { data: { client_host: "viewer-laptop" } });
      const { verification_url: url, user_code: userCode } = (await started.json()) as { verification_url: string; user_code: string };
      const viewerPage = await guest.newPage();
      await openSignedIn(viewerPage, url, viewer);
      await expect(viewerPage.getByTestId("cli-request-details")).toContainText("Requested byviewer-laptop");
      await expect(viewerPage.getByText("Your role in Demo organization can't create API keys (it needs the keys:write permission)")).toBeVisible();
      await expect(viewerPage.getByRole("button", { name: "Approve", exact: true })).toBeDisabled();
      await expect(viewerPage.getByText(`Signed in as ${viewer.email}`)).toBeVisible();
      await screenshot(viewerPage, "cli-login-viewer");

      // What the page would show if asked anyway: the server's refusal names the missing permission.
      const refused = await viewerPage.request.post(`${baseURL}/api/dashboard/cli/device-codes/${userCode}/approve`, {
        data: { project_id: identity.project.id, scopes: ["config:read"] },
      });
      expect(refused.status()).toBe(403);
      expect(await refused.json()).toMatchObject({ error: "insufficient_scope", message: expect.stringContaining("keys:write") });

      await viewerPage.getByRole("button", { name: "Deny", exact: true }).click();
      await expect(viewerPage.getByTestId("cli-outcome").getByRole("heading", { name: "Login denied" })).toBeVisible();
    } finally {
      await guest.close();
    }
  });
});
