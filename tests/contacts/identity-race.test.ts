import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { contactIdentities, contacts } from "@/lib/db/schema";
import { upsertContact } from "@/lib/domain/contacts/identity";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { createTestApp, type Seeded, type TestApp } from "../support/app";

/**
 * upsertContact reads the identity's contact id inside its upsert and links a new identity after it
 * (lib/domain/contacts/identity.ts). Two first messages from one new customer, to two projects of one
 * organization at once, both find the identity unknown: each makes a contact, one link wins, and the
 * other must give up its row and use the winner's id, so one customer is one contact id in the
 * organization and nothing is left behind.
 */
let app: TestApp;
let acme: Seeded;
let sibling: { projectId: string };

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
  sibling = await app.addProject(acme, "Sibling");
});
afterAll(() => app?.close());

describe("a new customer's first messages to two projects at once", () => {
  it("are one contact id in both projects, with no row left from the losing writer", async () => {
    const phone = "15557770123";
    const input = (projectId: string, name: string) => ({
      projectId,
      organizationId: acme.orgId,
      channelId: SANDBOX_CHANNEL_ID,
      platform: "PLATFORM_A",
      phone,
      name,
      now: app.clock.now(),
    });
    const [first, second] = await Promise.all([upsertContact(app.db, input(acme.projectId, "A")), upsertContact(app.db, input(sibling.projectId, "B"))]);
    expect(first.id).toBe(second.id);
    expect(first.projectId).toBe(acme.projectId);
    expect(second).toMatchObject({ projectId: sibling.projectId, name: "B", phone: `+${phone}` });
    const rows = await app.db
      .select({ projectId: contacts.projectId, id: contacts.id })
      .from(contacts)
      .where(and(inArray(contacts.projectId, [acme.projectId, sibling.projectId]), eq(contacts.phone, `+${phone}`)));
    expect(rows.sort((a, b) => a.projectId.localeCompare(b.projectId))).toEqual(
      [
        { projectId: acme.projectId, id: first.id },
        { projectId: sibling.projectId, id: first.id },
      ].sort((a, b) => a.projectId.localeCompare(b.projectId)),
    );
    const links = await app.db
      .select()
      .from(contactIdentities)
      .where(and(eq(contactIdentities.organizationId, acme.orgId), eq(contactIdentities.value, phone)));
    expect(links.map((l) => l.contactId)).toEqual([first.id]);

    // A later message is the same contact, refreshed, in one statement's upsert.
    const again = await upsertContact(app.db, input(acme.projectId, "A2"));
    expect(again).toMatchObject({ id: first.id, name: "A2" });
  });
});
