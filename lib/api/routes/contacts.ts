import { defineRoute } from "@/lib/api/route";
import { IdParam, PageQuery, listOf } from "@/lib/api/schemas/common";
import { Contact, ContactCreate, ContactUpdate } from "@/lib/api/schemas/contacts";
import { createContact, getContact, listContacts, updateContact } from "@/lib/domain/contacts";

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
    params: IdParam,
    body: ContactUpdate,
    response: Contact,
    handler: ({ ctx, params, body }) => updateContact(ctx, params.id, body),
  }),
];
