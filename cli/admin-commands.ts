// The operator's database commands: migrations, dead letters, projects, plans and organizations.
import { desc, eq, isNotNull } from "drizzle-orm";
import { inboundWebhooks, organizations, projects } from "@/lib/db/schema";
import { upsertPlan } from "@/lib/domain/plans";
import { setOrganizationPlan, setOrganizationPlatform } from "@/lib/domain/organizations";
import type { Command } from "./command";
import { integer, required } from "./flags";

export const databaseCommands: Command[] = [
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
];

export const planCommands: Command[] = [
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
      if (platform !== "PLATFORM_B" && platform !== "PLATFORM_C") throw new Error("--platform must be PLATFORM_B or PLATFORM_C.");
      const org = await setOrganizationPlatform(db, required(flags, "org"), platform, !flags.off, new Date());
      io.out(`${platform} is ${flags.off ? "off" : "on"} for ${org.id}.`);
    },
  },
];
