// API keys from the command line; each write is audited as the system, like the dashboard's as a user.
import { createApiKey, listProjectKeys, revokeApiKey } from "@/lib/domain/keys";
import { keyCreatedAudit, keyRevokedAudit } from "@/lib/domain/keys/manage";
import { recordAudit } from "@/lib/domain/audit/record";
import { SvcError } from "@/lib/errors";
import type { Command } from "./command";
import { list, required } from "./flags";
import { CLI_ACTOR_DISPLAY, cliAuditCtx, projectOrThrow } from "./project-admin";

export const keyCommands: Command[] = [
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
];
