import type { ParseArgsConfig } from "node:util";
import { desc, eq } from "drizzle-orm";
import { organizations, projects } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { createApiKey, listProjectKeys, revokeApiKey } from "@/lib/domain/keys";
import { upsertPlan } from "@/lib/domain/plans";
import { setOrganizationPlan } from "@/lib/domain/organizations";
import { SvcError } from "@/lib/errors";

export interface CommandIo {
  db(): Promise<Db>;
  out(line: string): void;
}

export interface Command {
  group: string;
  name: string;
  summary: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  run(flags: Record<string, string | boolean | undefined>, io: CommandIo): Promise<void>;
}

function required(flags: Record<string, string | boolean | undefined>, name: string): string {
  const value = flags[name];
  if (typeof value !== "string" || value === "") throw new Error(`--${name} is required.`);
  return value;
}

function list(value: string | boolean | undefined): string[] {
  return typeof value === "string" ? value.split(",").map((s) => s.trim()).filter(Boolean) : [];
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
    options: { project: { type: "string" }, scopes: { type: "string" }, publishable: { type: "boolean" }, name: { type: "string" }, origins: { type: "string" } },
    async run(flags, io) {
      const db = await io.db();
      const project = await projectOrThrow(db, required(flags, "project"));
      const kind = flags.publishable ? "publishable" : "secret";
      const scopes = kind === "secret" ? list(flags.scopes) : [];
      if (kind === "secret" && scopes.length === 0) throw new Error("--scopes is required for a secret key (comma-separated, or * for all).");
      try {
        const { key, value } = await createApiKey(db, {
          organizationId: project.organizationId,
          projectId: project.id,
          kind,
          name: typeof flags.name === "string" ? flags.name : null,
          scopes,
          allowedOrigins: list(flags.origins),
        });
        io.out(value);
        io.out(`# ${key.id} (${kind}, scopes: ${key.scopes.join(",")}). Shown once: store it now.`);
      } catch (error) {
        if (error instanceof SvcError) throw new Error(error.message);
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
      const key = await revokeApiKey(db, project.id, required(flags, "key"), new Date());
      io.out(`Revoked ${key.id} (${key.display}).`);
    },
  },
  {
    group: "plans",
    name: "set",
    summary: "--id <plan> --requests N --window S --monthly N [--retention-hours H]: create or change a plan",
    options: { id: { type: "string" }, requests: { type: "string" }, window: { type: "string" }, monthly: { type: "string" }, "retention-hours": { type: "string" } },
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
      const org = await setOrganizationPlan(db, required(flags, "org"), required(flags, "plan"));
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
      const [org] = await db.update(organizations).set({ [column]: !flags.off, updatedAt: new Date() }).where(eq(organizations.id, required(flags, "org"))).returning();
      if (!org) throw new Error(`No organization '${flags.org}'.`);
      io.out(`${platform} is ${flags.off ? "off" : "on"} for ${org.id}.`);
    },
  },
];
