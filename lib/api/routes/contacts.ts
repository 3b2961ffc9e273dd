import { defineRoute } from "@/lib/api/route";
import { IdParam, PageQuery, listOf } from "@/lib/api/schemas/common";
import { Contact, ContactCreate, ContactErased, ContactUpdate } from "@/lib/api/schemas/contacts";
import { createContact, getContact, listContacts, updateContact } from "@/lib/domain/contacts";
import { eraseContact } from "@/lib/domain/contacts/erase";

const tag = "Contacts";

export const contactRoutes = [
  defineRoute({
    method: "GET",
    path: "/contacts",
    operationId: "listContacts",
    summary: "List the project's contacts",
    tag,
    scope: "contacts:read",
    query: PageQuery,
    response: listOf(Contact, "ContactList"),
    handler: async ({ ctx, query }) => ({ object: "list" as const, ...(await listContacts(ctx, query)) }),
  }),
  defineRoute({
    method: "POST",
    path: "/contacts",
    operationId: "createContact",
    summary: "Enroll a contact (idempotent per phone or user id), with an opt-in record by default",
    tag,
    scope: "contacts:write",
    audit: { exempt: "customer records, written as often as customers write: data traffic, not configuration (their erasure is audited)" },
    body: ContactCreate,
    response: Contact,
    handler: ({ ctx, body }) => createContact(ctx, body),
  }),
  defineRoute({
    method: "GET",
    path: "/contacts/{id}",
    operationId: "getContact",
    summary: "Retrieve a contact",
    tag,
    scope: "contacts:read",
    params: IdParam,
    response: Contact,
    handler: ({ ctx, params }) => getContact(ctx, params.id),
  }),
  defineRoute({
    method: "PATCH",
    path: "/contacts/{id}",
    operationId: "updateContact",
    summary: "Update a contact's reference, language or opt-in",
    tag,
    scope: "contacts:write",
    audit: { exempt: "customer records, written as often as customers write: data traffic, not configuration (their erasure is audited)" },
    params: IdParam,
    body: ContactUpdate,
    response: Contact,
    handler: ({ ctx, params, body }) => updateContact(ctx, params.id, body),
  }),
  defineRoute({
    method: "DELETE",
    path: "/contacts/{id}",
    operationId: "eraseContact",
    summary: "Erase a contact's personal data (scope contacts:erase)",
    description:
      "Needs the contacts:erase scope. In the key's project, in one transaction: the contact's profile, opt-in, registration intents, broadcast recipient entries, flow submissions, conversation and sandbox membership are deleted or redacted; messages stay as content-free tombstones (ids, times, direction, type, status); stored event payloads (and so pending webhook deliveries) and raw provider envelopes that mention the contact are redacted. Cached media files are deleted from storage right after, by a retried job. `deleted_data_types` lists what the project held. Afterwards the contact is a 404 (a second DELETE too), and a later message from the same number starts a new contact. Other projects of the organization are not touched.",
    tag,
    scope: "contacts:erase",
    audit: ["contact.erased"],
    params: IdParam,
    response: ContactErased,
    handler: ({ ctx, params }) => eraseContact(ctx, params.id),
  }),
];
