import { readFile } from "node:fs/promises";
import type { ParseArgsConfig } from "node:util";
import { desc, eq, isNotNull } from "drizzle-orm";
import { inboundWebhooks, organizations, projects } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { createApiKey, listProjectKeys, revokeApiKey } from "@/lib/domain/keys";
import { keyCreatedAudit, keyRevokedAudit } from "@/lib/domain/keys/manage";
import { recordAudit } from "@/lib/domain/audit/record";
import { SYSTEM_ACTOR } from "@/lib/domain/context";
import { upsertPlan } from "@/lib/domain/plans";
import { setOrganizationPlan } from "@/lib/domain/organizations";
import { SvcError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { isValidWebhookSecret } from "@/lib/domain/projects/secrets";
import { isSampleEventType, SAMPLE_EVENT_TYPES, samplePayload } from "@/lib/domain/webhooks/samples";
import { configCommands } from "./config/commands";
import { loginCommands } from "./login";
import { listenCommand } from "./listen";
import { checkStandardWebhook, DEFAULT_TOLERANCE_SECONDS, serializeDelivery, signatureHeaders, verifySvcSignature } from "@/lib/domain/webhooks/signing";

export interface CommandIo {
  db(): Promise<Db>;
  out(line: string): void;
}

export interface Command {
  group: string;
  name: string;
  summary: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  /** The flag a lone positional argument fills (`config validate svc.yaml` = `--file svc.yaml`); none: positionals are refused. */
  positional?: string;
  run(flags: Record<string, string | boolean | undefined>, io: CommandIo): Promise<void>;
}

function required(flags: Record<string, string | boolean | undefined>, name: string): string {
  const value = flags[name];
  if (typeof value !== "string" || value === "") throw new Error(`--${name} is required.`);
  return value;
}

function list(value: string | boolean | undefined): string[] {
  return typeof value === "string"
    ? value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

function integer(flags: Record<string, string | boolean | undefined>, name: string): number {
  const value = Number(required(flags, name));
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number.`);
  return value;
}

async function projectOrThrow(db: Db, id: string) {
  const [project] = await db.select().from(projects).where(eq(projects.id, id));
  if (!project) throw new Error(`No project '${id}'. List them with: npm run svc -- projects list`);
  return project;
}

/** The admin CLI acts as the system (whoever holds DATABASE_URL): its audit entries say so. */
const CLI_ACTOR_DISPLAY = "svc CLI";

function cliAuditCtx(db: Db, project: { id: string; organizationId: string }) {
  return { db, actor: SYSTEM_ACTOR, now: new Date(), ip: null, project };
}

const WEBHOOK_TIMEOUT_MS = 10_000;
const RESPONSE_EXCERPT_BYTES = 500;

function webhookSecret(flags: Record<string, string | boolean | undefined>): string {
  const secret = required(flags, "secret");
  if (!isValidWebhookSecret(secret)) throw new Error("--secret must be a project webhook secret: 'whsec_' + base64 of 24 to 64 bytes.");
  return secret;
}

/** The first `limit` bytes of a response body; the rest is not read. */
async function bodyExcerpt(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8");
}

export const commands: Command[] = [
  {
    group: "db",
    name: "migrate",
    summary: "Apply pending migrations (also done at every start)",
    options: {},
    async run(_flags, io) {
      await io.db();
      io.out("Database is up to date.");
    },
  },
  {
    group: "ingest",
    name: "dead-letters",
    summary: "List inbound provider deliveries whose ingest gave up after its last retry, with their error",
    options: {},
    async run(_flags, io) {
      const db = await io.db();
      const rows = await db
        .select({
          id: inboundWebhooks.id,
          platform: inboundWebhooks.platform,
          receivedAt: inboundWebhooks.receivedAt,
          attempts: inboundWebhooks.failedAttempts,
          error: inboundWebhooks.error,
        })
        .from(inboundWebhooks)
        .where(isNotNull(inboundWebhooks.deadLetteredAt))
        .orderBy(desc(inboundWebhooks.id))
        .limit(200);
      if (!rows.length) io.out("No dead letters: every inbound delivery was ingested.");
      for (const r of rows) io.out(`${r.id}  ${r.platform}  received ${r.receivedAt.toISOString()}  ${r.attempts} failed attempts  ${r.error ?? ""}`);
    },
  },
  {
    group: "projects",
    name: "list",
    summary: "List every project with its organization",
    options: {},
    async run(_flags, io) {
      const db = await io.db();
      const rows = await db
        .select({ id: projects.id, name: projects.name, org: organizations.id, orgName: organizations.name, plan: organizations.planId })
        .from(projects)
        .innerJoin(organizations, eq(organizations.id, projects.organizationId))
        .orderBy(desc(projects.id));
      if (!rows.length) io.out("No projects yet. Start the app once (npm run dev) or set SVC_BOOTSTRAP_KEY.");
      for (const r of rows) io.out(`${r.id}  ${r.name}  (organization ${r.org}${r.orgName ? ` "${r.orgName}"` : ""}, plan ${r.plan})`);
    },
  },
  {
    group: "keys",
    name: "create",
    summary: "--project <id> --scopes a,b [--publishable] [--name n] [--origins o1,o2]",
    options: {
      project: { type: "string" },
      scopes: { type: "string" },
      publishable: { type: "boolean" },
      name: { type: "string" },
      origins: { type: "string" },
    },
    async run(flags, io) {
      const db = await io.db();
      const project = await projectOrThrow(db, required(flags, "project"));
      const kind = flags.publishable ? "publishable" : "secret";
      const scopes = kind === "secret" ? list(flags.scopes) : [];
      if (kind === "secret" && scopes.length === 0) throw new Error("--scopes is required for a secret key (comma-separated, or * for all).");
      try {
        const { key, value } = await db.transaction(async (tx) => {
          const created = await createApiKey(tx, {
            organizationId: project.organizationId,
            projectId: project.id,
            kind,
            name: typeof flags.name === "string" ? flags.name : null,
            scopes,
            allowedOrigins: list(flags.origins),
          });
          await recordAudit(cliAuditCtx(tx, project), { ...keyCreatedAudit(created.key), systemDisplay: CLI_ACTOR_DISPLAY });
          return created;
        });
        io.out(value);
        io.out(`# ${key.id} (${kind}, scopes: ${key.scopes.join(",")}). Shown once: store it now.`);
      } catch (error) {
        if (SvcError.is(error)) throw new Error(error.message, { cause: error });
        throw error;
      }
    },
  },
  {
    group: "keys",
    name: "list",
    summary: "--project <id>: the project's keys (never their values)",
    options: { project: { type: "string" } },
    async run(flags, io) {
      const db = await io.db();
      const project = await projectOrThrow(db, required(flags, "project"));
      for (const k of await listProjectKeys(db, project.id)) {
        io.out(`${k.id}  ${k.display}  ${k.kind}  [${k.scopes.join(",")}]${k.revokedAt ? "  revoked" : ""}`);
      }
    },
  },
  {
    group: "keys",
    name: "revoke",
    summary: "--project <id> --key <key id>",
    options: { project: { type: "string" }, key: { type: "string" } },
    async run(flags, io) {
      const db = await io.db();
      const project = await projectOrThrow(db, required(flags, "project"));
      const key = await db.transaction(async (tx) => {
        const revoked = await revokeApiKey(tx, project.id, required(flags, "key"), new Date());
        await recordAudit(cliAuditCtx(tx, project), { ...keyRevokedAudit(revoked), systemDisplay: CLI_ACTOR_DISPLAY });
        return revoked;
      });
      io.out(`Revoked ${key.id} (${key.display}).`);
    },
  },
  {
    group: "plans",
    name: "set",
    summary: "--id <plan> --requests N --window S --monthly N [--retention-hours H]: create or change a plan",
    options: {
      id: { type: "string" },
      requests: { type: "string" },
      window: { type: "string" },
      monthly: { type: "string" },
      "retention-hours": { type: "string" },
    },
    async run(flags, io) {
      const db = await io.db();
      const id = required(flags, "id");
      const plan = await upsertPlan(db, {
        id,
        name: id,
        requestsPerWindow: integer(flags, "requests"),
        windowSeconds: integer(flags, "window"),
        monthlyRequests: integer(flags, "monthly"),
        mediaRetentionSeconds: flags["retention-hours"] ? integer(flags, "retention-hours") * 3600 : 86_400,
      });
      io.out(`Plan ${plan.id}: ${plan.requestsPerWindow} requests / ${plan.windowSeconds} s, ${plan.monthlyRequests} / month.`);
    },
  },
  {
    group: "orgs",
    name: "set-plan",
    summary: "--org <id> --plan <plan id>",
    options: { org: { type: "string" }, plan: { type: "string" } },
    async run(flags, io) {
      const db = await io.db();
      const org = await setOrganizationPlan(db, required(flags, "org"), required(flags, "plan"), new Date());
      io.out(`Organization ${org.id} is on plan ${org.planId}.`);
    },
  },
  {
    group: "orgs",
    name: "enable-platform",
    summary: "--org <id> --platform PLATFORM_B|PLATFORM_C [--off]",
    options: { org: { type: "string" }, platform: { type: "string" }, off: { type: "boolean" } },
    async run(flags, io) {
      const db = await io.db();
      const platform = required(flags, "platform");
      const column = platform === "PLATFORM_B" ? "platformBEnabled" : platform === "PLATFORM_C" ? "platformCEnabled" : null;
      if (!column) throw new Error("--platform must be PLATFORM_B or PLATFORM_C.");
      const [org] = await db
        .update(organizations)
        .set({ [column]: !flags.off, updatedAt: new Date() })
        .where(eq(organizations.id, required(flags, "org")))
        .returning();
      if (!org) throw new Error(`No organization '${flags.org}'.`);
      io.out(`${platform} is ${flags.off ? "off" : "on"} for ${org.id}.`);
    },
  },
  {
    group: "webhooks",
    name: "trigger",
    summary: `--url <u> --secret <whsec_...> [--event <type>]: post a signed sample delivery (default message.received)`,
    options: { url: { type: "string" }, secret: { type: "string" }, event: { type: "string" } },
    async run(flags, io) {
      const secret = webhookSecret(flags);
      const url = required(flags, "url");
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        throw new Error(`--url '${url}' is not a URL.`);
      }
      if (target.protocol !== "https:" && target.protocol !== "http:") throw new Error("--url must be an http(s) URL.");
      const event = typeof flags.event === "string" && flags.event !== "" ? flags.event : "message.received";
      if (!isSampleEventType(event)) throw new Error(`--event must be one of: ${SAMPLE_EVENT_TYPES.join(", ")}.`);
      // The same body and headers as a real delivery, with a fresh event id.
      const now = new Date();
      const eventId = newId("event", now.getTime());
      const body = serializeDelivery(event, samplePayload(event), now);
      // Same content-type and user-agent as lib/domain/webhooks/attempt.ts.
      const headers = {
        "content-type": "application/json",
        "user-agent": "svc-webhooks/1.0",
        ...signatureHeaders({ eventId, eventType: event, body, secrets: [secret], timestamp: now }),
      };
      // No SSRF guard on purpose: this is a local test tool the user runs against a URL of their own
      // choosing (often localhost). Real deliveries go through the private-network guard instead.
      let response: Response;
      try {
        response = await fetch(target, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS) });
      } catch (error) {
        if (error instanceof Error && error.name === "TimeoutError")
          throw new Error(`No answer from ${target.href} within ${WEBHOOK_TIMEOUT_MS / 1000} s.`, { cause: error });
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
        throw new Error(`Could not reach ${target.href}: ${cause}`, { cause: error });
      }
      io.out(`POST ${target.href}  ${event}  x-svc-delivery: ${eventId}`);
      io.out(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`);
      const excerpt = await bodyExcerpt(response, RESPONSE_EXCERPT_BYTES);
      if (excerpt) io.out(excerpt);
      if (response.status < 200 || response.status > 299)
        throw new Error(`The receiver answered ${response.status}, not 2xx: real deliveries would be retried.`);
    },
  },
  {
    group: "webhooks",
    name: "verify",
    summary:
      "--secret <s> --signature <x-svc-signature> [--previous-signature <x-svc-signature-previous>] --body-file <f> [--id --timestamp --standard-signature] [--tolerance S]",
    options: {
      secret: { type: "string" },
      signature: { type: "string" },
      "previous-signature": { type: "string" },
      "body-file": { type: "string" },
      id: { type: "string" },
      timestamp: { type: "string" },
      "standard-signature": { type: "string" },
      tolerance: { type: "string" },
    },
    async run(flags, io) {
      const secret = required(flags, "secret");
      const signature = required(flags, "signature");
      const file = required(flags, "body-file");
      const standard = ["id", "timestamp", "standard-signature"].filter((name) => typeof flags[name] === "string" && flags[name] !== "");
      if (standard.length !== 0 && standard.length !== 3)
        throw new Error("--id, --timestamp and --standard-signature go together (the webhook-id, webhook-timestamp and webhook-signature headers).");
      const tolerance = flags.tolerance === undefined ? DEFAULT_TOLERANCE_SECONDS : Number(flags.tolerance);
      if (!Number.isInteger(tolerance) || tolerance < 0) throw new Error("--tolerance must be a whole number of seconds.");
      // The exact bytes: signatures cover the raw body, so the file is never decoded or re-encoded.
      let body: Buffer;
      try {
        body = await readFile(file);
      } catch (error) {
        throw new Error(`Cannot read --body-file '${file}': ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
      }
      // --signature takes either header's value (a receiver may hold the new or the previous secret);
      // --previous-signature the x-svc-signature-previous value sent during a rotation overlap.
      const previous = typeof flags["previous-signature"] === "string" && flags["previous-signature"] !== "" ? flags["previous-signature"] : null;
      const given: [string, string][] = [["--signature", signature], ...(previous ? [["--previous-signature", previous] as [string, string]] : [])];
      for (const [flag, value] of given) {
        if (!/^\s*sha256=[0-9a-fA-F]{64}\s*$/.test(value)) {
          throw new Error(`invalid: ${flag} must be one header value (x-svc-signature or x-svc-signature-previous), sha256=<64 hex digits>.`);
        }
      }
      const matchedCurrent = verifySvcSignature(secret, body, signature);
      const matchedPrevious = previous !== null && verifySvcSignature(secret, body, previous);
      if (!matchedCurrent && !matchedPrevious) {
        throw new Error(
          previous
            ? "invalid: neither x-svc-signature nor x-svc-signature-previous matches this secret and body."
            : "invalid: x-svc-signature does not match this secret and body.",
        );
      }
      if (standard.length === 3) {
        const headers = {
          "webhook-id": String(flags.id),
          "webhook-timestamp": String(flags.timestamp),
          "webhook-signature": String(flags["standard-signature"]),
        };
        const check = checkStandardWebhook(secret, headers, body, { toleranceSeconds: tolerance, now: new Date() });
        if (!check.valid) throw new Error(`invalid: ${check.reason}${check.reason.startsWith("webhook-timestamp is") ? " (widen with --tolerance)" : ""}.`);
      }
      io.out("valid");
      const checked = [
        "x-svc-signature",
        ...(previous ? ["x-svc-signature-previous"] : []),
        ...(standard.length === 3 ? ["webhook-signature", "webhook-timestamp"] : []),
      ];
      io.out(`# checked: ${checked.length > 1 ? `${checked.slice(0, -1).join(", ")} and ${checked[checked.length - 1]}` : checked[0]}`);
      if (!matchedCurrent)
        io.out("# matched x-svc-signature-previous: this is the previous secret, which stops signing 24 h after the rotation; switch to the new one.");
    },
  },
  ...configCommands,
  ...loginCommands,
  listenCommand,
];
