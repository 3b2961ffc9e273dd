import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * One writer per table (ARCHITECTURE.md "Rules"): every drizzle write of a table — `.insert(T)`,
 * `.update(T)`, `.delete(T)`, a bulk `insertRowsSql(T, …)` or raw `update ${T}` / `insert into ${T}` /
 * `delete from ${T}` — sits in the module that owns T. Another module that needs the row changed calls
 * the owner's verb (inside its own transaction: `{ ...ctx, db: tx }`), so one module knows every way
 * its rows change. The scan reads the source as text: lib/, app/ and cli/.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");

/** Each table's owner: a folder (or one file) under the repo root. A new table fails the test until it gets one. */
const OWNERS: Record<string, string> = {
  apiKeys: "lib/domain/keys/",
  auditEvents: "lib/domain/audit/",
  automations: "lib/domain/automations/",
  automationRuns: "lib/domain/automations/",
  automationEvaluations: "lib/domain/automations/",
  broadcasts: "lib/domain/broadcasts/",
  broadcastRecipients: "lib/domain/broadcasts/",
  businessAgents: "lib/domain/agents/",
  businessAgentConnectors: "lib/domain/agents/",
  businessAgentTools: "lib/domain/agents/",
  threadControlStates: "lib/domain/conversations/",
  channels: "lib/domain/channels/",
  cliDeviceCodes: "lib/domain/cli-login/",
  contactIdentities: "lib/domain/contacts/",
  contacts: "lib/domain/contacts/",
  optIns: "lib/domain/contacts/",
  conversations: "lib/domain/conversations/",
  conversationNotes: "lib/domain/inbox/",
  conversationReads: "lib/domain/inbox/",
  savedReplies: "lib/domain/inbox/",
  events: "lib/domain/events/",
  flows: "lib/domain/flows/",
  flowVersions: "lib/domain/flows/",
  flowVersionCopies: "lib/domain/flows/",
  flowDispatches: "lib/domain/flows/",
  flowSubmissions: "lib/domain/flows/",
  hostedFunctions: "lib/domain/functions/",
  functionVersions: "lib/domain/functions/",
  functionDrafts: "lib/domain/functions/",
  functionSecrets: "lib/domain/functions/",
  functionKv: "lib/domain/functions/",
  functionInvocations: "lib/domain/functions/",
  // Idempotency records belong to the HTTP layer: a claim / replay / release around a route's verb.
  idempotencyKeys: "lib/api/idempotency.ts",
  inboundWebhooks: "lib/domain/ingest/",
  memberships: "lib/domain/members/",
  invitations: "lib/domain/members/",
  users: "lib/domain/members/",
  media: "lib/domain/media/",
  messages: "lib/domain/messages/",
  organizations: "lib/domain/organizations/",
  plans: "lib/domain/plans/",
  projects: "lib/domain/projects/",
  // Written by rate-limiter-flexible's drizzle store, handed the table by the limiter port.
  rateLimitCounters: "lib/ports/limiter/",
  registrationIntents: "lib/domain/registration-intents/",
  // The shared sandbox's testers: joined by a customer's inbound join code, which only ingest sees.
  sandboxParticipants: "lib/domain/ingest/",
  templates: "lib/domain/templates/",
  webhookDeliveries: "lib/domain/webhooks/",
  webhookAttempts: "lib/domain/webhooks/",
};

/** Justified exceptions, "file table" → why. Each must still occur: a stale entry fails too. */
const ALLOWED: Record<string, string> = Object.fromEntries([
  // Erasure (DELETE /contacts/{id}) removes or tombstones a contact's personal data in every table in ONE
  // transaction; the erase-*.ts files are the one place that lists all of it, so nothing is forgotten.
  ...[
    ["erase-records.ts", ["broadcastRecipients", "registrationIntents", "sandboxParticipants"]],
    [
      "erase-conversation.ts",
      ["conversationNotes", "conversationReads", "conversations", "flowDispatches", "flowSubmissions", "media", "messages", "threadControlStates"],
    ],
    ["erase-payloads.ts", ["events", "functionInvocations", "functionKv", "idempotencyKeys", "inboundWebhooks", "webhookAttempts"]],
  ].flatMap(([file, tables]) => (tables as string[]).map((table) => [`lib/domain/contacts/${file as string} ${table}`, "contact erasure"])),
  // Send's and ingest's hot path: ONE prepared statement stores the message and moves its conversation's
  // last_message_at (a CTE), built once per process; split in two it would cost a round trip per message.
  ["lib/domain/conversations/message-insert.ts messages", "message insert touching its conversation"],
  // Every event routed to the webhook: ONE statement stores it, its delivery and the delivery's first job
  // (lib/ports/queue/job-insert.ts); split by owner it was three round trips inside ingest's transaction.
  ["lib/domain/events/insert-delivering.ts webhookDeliveries", "event insert with its delivery"],
]);

/**
 * Not yet moved to the owner's verbs (issue 33 item 3 left them; each names where it goes). The list
 * only shrinks: a new cross-module write fails the test, and so does an entry whose write is gone.
 */
const NOT_YET_MOVED: Record<string, string> = {};

const WRITE_PATTERNS = [
  /\.(?:insert|update|delete)\(\s*(?:schema\.)?(\w+)\s*\)/g,
  /\binsertRowsSql\(\s*(?:schema\.)?(\w+)\s*,/g,
  /\b(?:update|insert\s+into|delete\s+from)\s+\$\{\s*(?:schema\.)?(\w+)\s*\}/gi,
];

function tablesOfSchema(): Set<string> {
  const dir = path.join(ROOT, "lib/db/schema");
  const names = readdirSync(dir).flatMap((file) =>
    [...readFileSync(path.join(dir, file), "utf8").matchAll(/export const (\w+) = pgTable\(/g)].map((m) => m[1]!),
  );
  return new Set(names);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(rel);
    return /\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

/** Every "file table" pair where a file writes a table it does not own. */
function foreignWrites(tables: Set<string>): Set<string> {
  const found = new Set<string>();
  for (const file of ["lib", "app", "cli"].flatMap(sourceFiles)) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    for (const pattern of WRITE_PATTERNS) {
      for (const match of text.matchAll(pattern)) {
        const table = match[1]!;
        if (tables.has(table) && !file.startsWith(OWNERS[table]!)) found.add(`${file} ${table}`);
      }
    }
  }
  return found;
}

describe("one writer per table", () => {
  const tables = tablesOfSchema();

  it("every table has an owning module", () => {
    expect(tables.size).toBeGreaterThan(40);
    expect([...tables].filter((table) => !OWNERS[table])).toEqual([]);
    expect(Object.keys(OWNERS).filter((table) => !tables.has(table))).toEqual([]);
  });

  it("no table is written outside its owner, but for the listed exceptions", () => {
    const listed = new Set([...Object.keys(ALLOWED), ...Object.keys(NOT_YET_MOVED)]);
    const found = foreignWrites(tables);
    expect([...found].filter((write) => !listed.has(write)).sort()).toEqual([]);
    expect([...listed].filter((write) => !found.has(write)).sort()).toEqual([]);
  });

  it("the scan sees each way a write is spelled", () => {
    const spelled = [
      "await ctx.db.insert(automations).values(row)",
      "await tx\n  .update(schema.automations)\n  .set({})",
      "await ctx.db.delete( automations ).where(x)",
      "insertRowsSql(automations, rows, sql``)",
      "sql`update ${automations} set position = 1`",
      "sql`INSERT INTO ${automations} values`",
    ];
    for (const text of spelled) {
      const tables = WRITE_PATTERNS.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]));
      expect(tables, text).toEqual(["automations"]);
    }
  });
});
