import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setOrganizationPlatform } from "@/lib/domain/organizations";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { createFlow, publish } from "../flows/support";
import { connectNumber, createTemplate, forceReview, templateBody } from "./support";

/** POST/GET/DELETE /templates against the real simulator over HTTP (the provider's message templates API). */
let h: Harness;
let seeded: Seeded;
/** The project's own number, ready to submit templates. */
let channel: { id: string; businessAccountId: string };
let names = 0;
/** A fresh template name per test: (channel, name, language) is unique. */
const nextName = () => `tmpl_${++names}`;

beforeAll(async () => {
  h = await startHarness();
  seeded = await h.app.seed();
  channel = await connectNumber(h, seeded.key);
});
afterAll(() => h.close());

const post = (body: Record<string, unknown>, key = seeded.key) => h.app.call("POST", "/templates", { key, body });

describe("POST /templates", () => {
  it("submits the template to the provider and stores it PENDING with the provider's id", async () => {
    const name = nextName();
    const res = await post(templateBody(channel.id, { name }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: "whatsapp_template",
      channel_id: channel.id,
      name,
      language: "en_US",
      category: "UTILITY",
      status: "PENDING",
      rejection_reason: null,
      components: templateBody(channel.id).components,
      approved_at: null,
      rejected_at: null,
      last_synced_at: null,
    });
    expect(res.body.id).toMatch(/^tmpl_/);
    expect(res.body.submitted_at).toEqual(expect.any(String));
    expect(Object.keys(res.body).sort()).toEqual(
      [
        "object",
        "id",
        "channel_id",
        "meta_template_id",
        "name",
        "language",
        "category",
        "status",
        "rejection_reason",
        "components",
        "submitted_at",
        "approved_at",
        "rejected_at",
        "last_synced_at",
        "created_at",
        "updated_at",
      ].sort(),
    );
    const remote = h.server.simulator.state.templates.get(res.body.meta_template_id);
    expect(remote).toMatchObject({ name, language: "en_US", category: "UTILITY", business_account_id: channel.businessAccountId, status: "PENDING" });
  });

  it("answers 400 invalid_request with the component rules' issues by path, and submits nothing", async () => {
    const before = h.server.simulator.state.templates.size;
    const res = await post(
      templateBody(channel.id, {
        name: nextName(),
        components: [
          { type: "BODY", text: "Hi {{1}}" },
          { type: "FOOTER", text: "Code {{1}}" },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
    expect(Object.keys(res.body.issues)).toEqual(expect.arrayContaining(["components.0.example", "components.1.text"]));
    expect(h.server.simulator.state.templates.size).toBe(before);
  });

  it("checks the spec's request shape: name pattern, language length, category, at least one component", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: "Order-Shipped" }, "name"],
      [{ name: "a".repeat(513) }, "name"],
      [{ language: "e" }, "language"],
      [{ language: "en_US_POSIX_" }, "language"],
      [{ category: "PROMO" }, "category"],
      [{ components: [] }, "components"],
      [{ parameter_format: "LOOSE" }, "parameter_format"],
      [{ surprise: true }, "surprise"],
    ];
    for (const [override, field] of cases) {
      const res = await post(templateBody(channel.id, { name: nextName(), ...override }));
      expect(res.status, JSON.stringify(override)).toBe(400);
      expect(Object.keys(res.body.issues ?? {}).join(" "), JSON.stringify(override)).toContain(field);
    }
  });

  it("takes NAMED variables with parameter_format NAMED", async () => {
    const res = await post(
      templateBody(channel.id, {
        name: nextName(),
        parameter_format: "NAMED",
        components: [
          {
            type: "BODY",
            text: "Hello {{first_name}}, welcome aboard.",
            example: { body_text_named_params: [{ param_name: "first_name", example: "Ana" }] },
          },
        ],
      }),
    );
    expect(res.status).toBe(200);
    expect(h.server.simulator.state.templates.get(res.body.meta_template_id)?.parameter_format).toBe("NAMED");
  });

  it("refuses the same (channel, name, language) with 409 template_exists; another language is a new template", async () => {
    const name = nextName();
    await createTemplate(h, seeded.key, templateBody(channel.id, { name }));
    const again = await post(templateBody(channel.id, { name }));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "template_exists", channel_id: channel.id, name, language: "en_US" });
    const spanish = await post(templateBody(channel.id, { name, language: "es" }));
    expect(spanish.status).toBe(200);
  });

  it("answers 422 template_rejected with the provider's code and message when the provider refuses", async () => {
    // Within our 2 to 10 characters, but not a language code the provider knows.
    const res = await post(templateBody(channel.id, { name: nextName(), language: "en-US" }));
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("template_rejected");
    expect(res.body.failure).toMatchObject({ code: 100 });
    expect(res.body.failure.message).toEqual(expect.any(String));
    const listed = await h.app.call("GET", "/templates?language=en-US", { key: seeded.key });
    expect(listed.body.data).toEqual([]);
  });

  it("refuses the shared sandbox with 412 channel_not_ready and its blocker", async () => {
    const res = await post(templateBody("ch_sandbox", { name: nextName() }));
    expect(res.status).toBe(412);
    expect(res.body).toMatchObject({ error: "channel_not_ready", channel_id: "ch_sandbox", blockers: ["SANDBOX_TEMPLATES_NOT_SUPPORTED"] });
  });

  it("refuses a number whose account statuses are unknown with 412 channel_not_ready", async () => {
    const pending = await connectNumber(h, seeded.key, { ready: false });
    const res = await post(templateBody(pending.id, { name: nextName() }));
    expect(res.status).toBe(412);
    expect(res.body.blockers).toEqual(expect.arrayContaining(["META_ACCOUNT_STATUS_UNKNOWN", "PAYMENT_STATUS_UNKNOWN"]));
  });

  it("refuses PLATFORM_B with 422 feature_unsupported_on_channel", async () => {
    await setOrganizationPlatform(h.app.db, seeded.orgId, "PLATFORM_B", true, h.app.clock.now());
    const b = await h.app.call("POST", "/channels", {
      key: seeded.key,
      body: { platform: "PLATFORM_B", credentials: { account_id: "ig-tmpl", access_token: "t" } },
    });
    expect(b.status).toBe(200);
    const res = await post(templateBody(b.body.id, { name: nextName() }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: "feature_unsupported_on_channel", platform: "PLATFORM_B" });
  });

  it("answers 404 for a channel of another organization and for a sibling project's number", async () => {
    const other = await h.app.seed({ orgName: "Other" });
    const foreign = await connectNumber(h, other.key);
    const res = await post(templateBody(foreign.id, { name: nextName() }));
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
    const sibling = await h.app.addProject(seeded);
    const siblingNumber = await connectNumber(h, sibling.key);
    const fromMain = await post(templateBody(siblingNumber.id, { name: nextName() }));
    expect(fromMain.status).toBe(404);
    expect(await post(templateBody(channel.id, { name: nextName() }), sibling.key)).toMatchObject({ status: 404 });
  });
});

describe("POST /templates with a FLOW button", () => {
  /** A flow of the project published under the project's number (its business account). */
  let flow: Record<string, any>;
  beforeAll(async () => {
    const created = await createFlow(h, seeded.key, { name: "Booking" });
    flow = await publish(h, seeded.key, created.id);
    expect(flow).toMatchObject({ status: "PUBLISHED", meta_waba_id: channel.businessAccountId });
  });

  const withButton = (button: Record<string, unknown>) =>
    templateBody(channel.id, {
      name: nextName(),
      components: [
        { type: "BODY", text: "Book your visit in a few taps." },
        { type: "BUTTONS", buttons: [{ type: "FLOW", text: "Book", flow_action: "navigate", navigate_screen: "DETAILS", ...button }] },
      ],
    });

  it.each([
    ["flow_id", () => ({ flow_id: flow.id })],
    ["flow_name", () => ({ flow_name: "Booking" })],
  ])("by %s: submits the provider flow id and stores the button as sent", async (_key, button) => {
    const body = withButton(button());
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.body.components).toEqual(body.components);
    const remote = h.server.simulator.state.templates.get(res.body.meta_template_id)!;
    const sent = (remote.components[1] as { buttons: Record<string, unknown>[] }).buttons[0]!;
    expect(sent).toEqual({ type: "FLOW", text: "Book", flow_action: "navigate", navigate_screen: "DETAILS", flow_id: flow.meta_flow_id });
  });

  it("refuses an unknown flow and a flow that is not published, with issues on the button", async () => {
    const unknown = await post(withButton({ flow_id: "flow_01NOSUCHFLOW0000000000000" }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues["components.1.buttons.0.flow_id"]).toEqual([expect.stringContaining("No flow")]);
    const draft = await createFlow(h, seeded.key, { name: "Unpublished" });
    const res = await post(withButton({ flow_name: "Unpublished" }));
    expect(res.status).toBe(400);
    expect(res.body.issues["components.1.buttons.0.flow_name"]).toEqual([expect.stringContaining("publish it first")]);
    expect((await post(withButton({ flow_id: draft.id }))).status).toBe(400);
  });

  it("refuses another project's flow as unknown", async () => {
    const sibling = await h.app.addProject(seeded);
    const theirs = await createFlow(h, sibling.key, { name: "Theirs" });
    const res = await post(withButton({ flow_id: theirs.id }));
    expect(res.status).toBe(400);
    expect(res.body.issues["components.1.buttons.0.flow_id"]).toEqual([expect.stringContaining("No flow")]);
  });
});

describe("GET /templates", () => {
  it("lists newest first and filters by channel_id, status, name and language", async () => {
    const second = await connectNumber(h, seeded.key);
    const name = nextName();
    const a = await createTemplate(h, seeded.key, templateBody(channel.id, { name }));
    const b = await createTemplate(h, seeded.key, templateBody(second.id, { name, language: "pt_BR" }));
    await forceReview(h, b.meta_template_id, { status: "REJECTED" });
    await h.settle(20);
    const ids = async (query: string) => ((await h.app.call("GET", `/templates?${query}`, { key: seeded.key })).body.data as { id: string }[]).map((t) => t.id);
    expect(await ids(`name=${name}`)).toEqual([b.id, a.id]);
    expect(await ids(`name=${name}&channel_id=${second.id}`)).toEqual([b.id]);
    expect(await ids(`name=${name}&language=en_US`)).toEqual([a.id]);
    expect(await ids(`name=${name}&status=REJECTED`)).toEqual([b.id]);
    expect(await ids(`name=${name}&status=APPROVED`)).not.toContain(b.id);
    const bad = await h.app.call("GET", "/templates?status=LIVE", { key: seeded.key });
    expect(bad.status).toBe(400);
  });

  it("pages with limit and starting_after", async () => {
    const name = nextName();
    const languages = ["en", "es", "fr"];
    for (const language of languages) await createTemplate(h, seeded.key, templateBody(channel.id, { name, language }));
    const first = await h.app.call("GET", `/templates?name=${name}&limit=2`, { key: seeded.key });
    expect(first.body.data.map((t: { language: string }) => t.language)).toEqual(["fr", "es"]);
    expect(first.body.has_more).toBe(true);
    const next = await h.app.call("GET", `/templates?name=${name}&limit=2&starting_after=${first.body.data[1].id}`, { key: seeded.key });
    expect(next.body.data.map((t: { language: string }) => t.language)).toEqual(["en"]);
    expect(next.body.has_more).toBe(false);
  });

  it("shows another project none of this project's templates", async () => {
    const name = nextName();
    await createTemplate(h, seeded.key, templateBody(channel.id, { name }));
    const sibling = await h.app.addProject(seeded);
    const theirs = await h.app.call("GET", `/templates?name=${name}`, { key: sibling.key });
    expect(theirs.body.data).toEqual([]);
  });
});

describe("GET /templates/{id}", () => {
  it("returns the template; another project's id is a 404", async () => {
    const created = await createTemplate(h, seeded.key, templateBody(channel.id, { name: nextName() }));
    const res = await h.app.call("GET", `/templates/${created.id}`, { key: seeded.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
    const sibling = await h.app.addProject(seeded);
    const theirs = await h.app.call("GET", `/templates/${created.id}`, { key: sibling.key });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe("not_found");
  });
});

describe("DELETE /templates/{id}", () => {
  it("deletes the template at the provider and here", async () => {
    const created = await createTemplate(h, seeded.key, templateBody(channel.id, { name: nextName() }));
    expect(h.server.simulator.state.templates.has(created.meta_template_id)).toBe(true);
    const res = await h.app.call("DELETE", `/templates/${created.id}`, { key: seeded.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: "whatsapp_template", id: created.id, deleted: true });
    expect(h.server.simulator.state.templates.has(created.meta_template_id)).toBe(false);
    expect((await h.app.call("GET", `/templates/${created.id}`, { key: seeded.key })).status).toBe(404);
    // The name is free again.
    expect((await post(templateBody(channel.id, { name: created.name }))).status).toBe(200);
  });

  it("keeps the template when the provider refuses, answering 502 provider_error", async () => {
    const created = await createTemplate(h, seeded.key, templateBody(channel.id, { name: nextName() }));
    h.server.simulator.state.templates.delete(created.meta_template_id);
    const res = await h.app.call("DELETE", `/templates/${created.id}`, { key: seeded.key });
    expect(res.status).toBe(502);
    expect(res.body.error).toBe("provider_error");
    expect((await h.app.call("GET", `/templates/${created.id}`, { key: seeded.key })).status).toBe(200);
  });

  it("answers 404 for another project's template and leaves it in place", async () => {
    const created = await createTemplate(h, seeded.key, templateBody(channel.id, { name: nextName() }));
    const sibling = await h.app.addProject(seeded);
    expect((await h.app.call("DELETE", `/templates/${created.id}`, { key: sibling.key })).status).toBe(404);
    expect(h.server.simulator.state.templates.has(created.meta_template_id)).toBe(true);
    expect((await h.app.call("GET", `/templates/${created.id}`, { key: seeded.key })).status).toBe(200);
  });
});
