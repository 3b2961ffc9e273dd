import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { webhookUrlErrorText } from "@/components/overview/webhook-url-error";
import { projectApi } from "@/lib/client/api";
import { handleDashboard } from "@/lib/dashboard/dispatch";
import { PRIVATE_NETWORK_NEXT_STEP } from "@/lib/domain/shared/outbound-url";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { addOperator, type Operator } from "./support";

/**
 * Issue 32 item 19: under a policy that refuses private networks (a production start's default), a
 * webhook_url on localhost or a private network is refused with the next step in plain words (start the
 * server with SVC_ALLOW_PRIVATE_NETWORK=true, or use a public address), and the overview's webhook URL
 * form shows those words under its field. The policy is the deployment's setting (ctx.settings), the
 * same one webhook deliveries use.
 */
let app: TestApp;
let seeded: Seeded;
let developer: Operator;

beforeAll(async () => {
  app = await createTestApp({ settings: { allowPrivateNetwork: false } });
  seeded = await app.seed();
  developer = await addOperator(app, seeded, "developer");
});
afterAll(() => app?.close());

const patch = (webhook_url: string) => app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { webhook_url } });

describe("PATCH /projects/{id} webhook_url under a production policy", () => {
  it("refuses a receiver on localhost or a private network and says how to allow it", async () => {
    for (const url of ["http://127.0.0.1:4000/hooks", "http://localhost:4000/hooks", "http://192.168.1.20/hooks", "http://[::1]:4000/hooks"]) {
      const res = await patch(url);
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toBe("invalid_request");
      expect(res.body.message, url).toMatch(/^webhook_url is not allowed: .*SVC_ALLOW_PRIVATE_NETWORK=true/);
      expect(res.body.issues.webhook_url, url).toEqual([expect.stringContaining(PRIVATE_NETWORK_NEXT_STEP)]);
    }
    expect(PRIVATE_NETWORK_NEXT_STEP).toContain("start the server with SVC_ALLOW_PRIVATE_NETWORK=true");
  });

  it("gives no such step where the setting would not help: a metadata address, a non-http URL", async () => {
    for (const url of ["http://169.254.169.254/latest", "ftp://hooks.example.com/in"]) {
      const res = await patch(url);
      expect(res.status, url).toBe(400);
      expect(JSON.stringify(res.body), url).not.toContain("SVC_ALLOW_PRIVATE_NETWORK");
    }
  });

  it("accepts a public address", async () => {
    const res = await patch("https://93.184.215.14/hooks");
    expect(res.status).toBe(200);
    expect(res.body.webhook_url).toBe("https://93.184.215.14/hooks");
  });
});

describe("the overview's webhook URL form", () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it("shows the server's next step under the field when a save is refused", async () => {
    // The browser's own client (lib/client/api.ts) against the real dashboard handler, signed in as a developer.
    globalThis.fetch = async (input, init) => {
      const url = new URL(String(input), "http://svc.test");
      const headers = new Headers(init?.headers);
      headers.set("cookie", developer.cookie);
      headers.set("host", "svc.test");
      headers.set("origin", "http://svc.test");
      const request = new Request(url, { method: init?.method ?? "GET", headers, body: init?.body ?? null });
      return handleDashboard(request, url.pathname.replace(/^\/api\/dashboard/, ""), app.runtime);
    };
    const refused = await projectApi(seeded.projectId, `/projects/${seeded.projectId}`, {
      method: "PATCH",
      body: { webhook_url: "http://localhost:3000/webhooks" },
    }).catch((error: unknown) => error);
    const text = webhookUrlErrorText(refused);
    expect(text).toBe(`Must be a public http(s) URL: private, loopback, link-local and metadata addresses are refused. ${PRIVATE_NETWORK_NEXT_STEP}`);
    expect(text).toContain("SVC_ALLOW_PRIVATE_NETWORK=true");
    expect(webhookUrlErrorText(new TypeError("offline"))).toBe("Couldn't save the URL. Try again.");
    expect(webhookUrlErrorText(null)).toBeUndefined();
  });
});
