import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseIdentity, type CustomerIdentity } from "@/components/sandbox/customer-store";
import { sandboxParticipants } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { newId } from "@/lib/ids";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { addOperator, dash } from "./support";

/**
 * The Sandbox phone opens as the tester who joined the project, not a new random number (issue 32
 * item 13): GET /api/dashboard/projects/{id}/sandbox/testers lists them, the latest first, and
 * chooseIdentity (components/sandbox/customer-store.ts) picks the phone's number from it.
 */
let app: TestApp;
let acme: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
});
afterAll(() => app?.close());

async function join(projectId: string, address: string) {
  await app.db.insert(sandboxParticipants).values({ id: newId("participant"), projectId, channelId: SANDBOX_CHANNEL_ID, address, joinedAt: app.clock.now() });
  app.clock.advance(1_000);
}

describe("GET /sandbox/testers (dashboard)", () => {
  it("lists this project's testers in E.164, the latest to join first, and no other project's", async () => {
    const other = await app.addProject(acme, "Other");
    await join(acme.projectId, "15550001001");
    await join(other.projectId, "15550001002");
    await join(acme.projectId, "15550001003");
    const viewer = await addOperator(app, acme, "viewer");
    const res = await dash(app, "GET", `/projects/${acme.projectId}/sandbox/testers`, { as: viewer });
    expect(res.status).toBe(200);
    expect(res.body.data.map((tester: { phone: string }) => tester.phone)).toEqual(["+15550001003", "+15550001001"]);
    expect(res.body.data[0]).toMatchObject({ object: "sandbox_tester", joined_at: expect.any(String) });
  });

  it("is refused without a session, and another organization's project is a 404", async () => {
    expect((await dash(app, "GET", `/projects/${acme.projectId}/sandbox/testers`)).status).toBe(401);
    const stranger = await app.seed({ orgName: "Globex" });
    const outsider = await addOperator(app, stranger, "owner");
    expect((await dash(app, "GET", `/projects/${acme.projectId}/sandbox/testers`, { as: outsider })).status).toBe(404);
  });
});

describe("the number the Sandbox phone opens as", () => {
  const random = () => "+15559999999";
  const auto = (from: string): CustomerIdentity => ({ from, name: "", channelId: null, auto: true });

  it("a browser without one opens as the latest joined tester, not a random number", () => {
    expect(chooseIdentity(null, ["+15550001003", "+15550001001"], random)).toMatchObject({ from: "+15550001003", auto: true });
  });

  it("waits for the testers rather than show a number it would replace", () => {
    expect(chooseIdentity(null, undefined, random)).toBeNull();
    expect(chooseIdentity(auto("+15551234567"), undefined, random)).toBeNull();
  });

  it("a random number only when nobody joined", () => {
    expect(chooseIdentity(null, [], random)).toMatchObject({ from: "+15559999999", auto: true });
  });

  it("a number the page invented gives way to a tester who joined since; one that joined stays", () => {
    expect(chooseIdentity({ ...auto("+15551234567"), name: "Ada" }, ["+15550001003"], random)).toMatchObject({ from: "+15550001003", name: "Ada" });
    expect(chooseIdentity(auto("+15550001001"), ["+15550001003", "+15550001001"], random)?.from).toBe("+15550001001");
    // Saved before the page kept `auto`: treated as the page's own, unless it joined.
    expect(chooseIdentity({ from: "+15551234567", name: "", channelId: null }, ["+15550001003"], random)?.from).toBe("+15550001003");
  });

  it("a number the operator chose always stays", () => {
    const chosen = { from: "+15557654321", name: "", channelId: null, auto: false };
    expect(chooseIdentity(chosen, ["+15550001003"], random)).toBe(chosen);
    expect(chooseIdentity(chosen, undefined, random)).toBe(chosen);
  });
});
