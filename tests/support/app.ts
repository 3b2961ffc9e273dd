import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LocalObjectStorage } from "@/lib/ports/storage";
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { openDatabase } from "@/lib/ports/db/open";
import type { DatabaseHandle } from "@/lib/ports/db/types";
import { FixedClock } from "@/lib/ports/clock";
import { buildRuntime, installRuntime, servicesOf, type Runtime, type RuntimeOptions } from "@/lib/server/runtime";
import { systemCtx, type SystemCtx } from "@/lib/domain/context";
import { dispatch } from "@/lib/api/router";
import { createOrganization } from "@/lib/domain/organizations";
import { createProjectRow } from "@/lib/domain/projects";
import { createApiKey } from "@/lib/domain/keys";
import { withDatabase } from "./global-setup";
import { templatePglite } from "./pglite-reuse";

export interface CallOptions {
  key?: string | null;
  publishableKey?: string;
  body?: unknown;
  /** A raw body string, sent as is (for invalid JSON cases). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any;
}

export interface TestApp {
  runtime: Runtime;
  clock: FixedClock;
  db: DatabaseHandle["db"];
  kind: DatabaseHandle["kind"];
  /** The per-file Postgres database (null on PGlite). */
  databaseUrl: string | null;
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  seed(options?: { scopes?: string[]; planId?: string; orgName?: string; projectName?: string }): Promise<Seeded>;
  addKey(seeded: Seeded, scopes: string[], kind?: "secret" | "publishable"): Promise<string>;
  /** Another project in the same organization, with its own `*` key. */
  addProject(seeded: Seeded, name?: string): Promise<{ projectId: string; key: string }>;
  /** A job's ctx (the system actor) over this app's database, ports and settings, at the clock's now. */
  systemCtx(): SystemCtx;
  close(): Promise<void>;
}

export interface Seeded {
  orgId: string;
  projectId: string;
  key: string;
  keyId: string;
}

/** A fresh, migrated database for one test file, the real router, and a clock the test moves. */
export async function createTestApp(options: { redisUrl?: string | null; graphUrl?: string; settings?: RuntimeOptions["settings"] } = {}): Promise<TestApp> {
  const template = inject("dbTemplate");
  let database: DatabaseHandle;
  let databaseUrl: string | null = null;
  let drop = async () => {};
  if (template.kind === "postgres") {
    const { default: postgres } = await import("postgres");
    const name = `svc_t_${randomBytes(6).toString("hex")}`;
    const admin = postgres(template.adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name} template ${template.template}`);
    databaseUrl = withDatabase(template.adminUrl, name);
    database = await openDatabase({ databaseUrl, migrate: false, max: 4 });
    drop = async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  } else {
    database = await templatePglite(template.dumpFile, async (handle) => {
      const runtime = await buildRuntime(handle, { redisUrl: null, graphUrl: "http://127.0.0.1:9/graph", storage: new LocalObjectStorage(os.tmpdir()) });
      await runtime.close();
    });
  }
  const clock = new FixedClock(Date.now());
  const redisUrl = options.redisUrl === undefined ? (process.env.REDIS_URL ?? null) : options.redisUrl;
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-media-"));
  const runtime = await buildRuntime(database, {
    clock,
    redisUrl,
    graphUrl: options.graphUrl ?? "http://127.0.0.1:9/graph",
    storage: new LocalObjectStorage(mediaDir),
    settings: options.settings,
    // Redis outlives the run: counters keyed by an address or a user (CLI login limits) would carry
    // into the next run within their window, so each app counts under its own prefix.
    limiterKeyPrefix: `svc-test-${randomUUID()}`,
  });
  installRuntime(runtime);

  const app: TestApp = {
    runtime,
    clock,
    db: database.db,
    kind: database.kind,
    databaseUrl,
    async call(method, path, opts = {}) {
      const headers = new Headers(opts.headers);
      if (opts.key) headers.set("authorization", `Bearer ${opts.key}`);
      if (opts.publishableKey) headers.set("x-svc-publishable-key", opts.publishableKey);
      let body: string | undefined = opts.rawBody;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers.set("content-type", "application/json");
      }
      const url = new URL(path, "http://svc.test/api/v1/");
      const request = new Request(`http://svc.test/api/v1${path}`, { method, headers, body });
      const response = await dispatch(request, url.pathname.replace(/^\/api\/v1/, ""), runtime);
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
    },
    async seed(seedOptions = {}) {
      const org = await createOrganization(database.db, { name: seedOptions.orgName ?? "Acme", planId: seedOptions.planId });
      const project = await createProjectRow(database.db, org.id, { name: seedOptions.projectName ?? "Main" }, clock.now());
      const { key, value } = await createApiKey(database.db, {
        organizationId: org.id,
        projectId: project.id,
        kind: "secret",
        name: "test",
        scopes: seedOptions.scopes ?? ["*"],
      });
      return { orgId: org.id, projectId: project.id, key: value, keyId: key.id };
    },
    async addKey(seeded, scopes, kind = "secret") {
      const { value } = await createApiKey(database.db, { organizationId: seeded.orgId, projectId: seeded.projectId, kind, scopes });
      return value;
    },
    async addProject(seeded, name = "Sibling") {
      const row = await createProjectRow(database.db, seeded.orgId, { name }, clock.now());
      const { value } = await createApiKey(database.db, { organizationId: seeded.orgId, projectId: row.id, kind: "secret", scopes: ["*"] });
      return { projectId: row.id, key: value };
    },
    systemCtx: () => systemCtx(servicesOf(runtime)),
    async close() {
      installRuntime(null);
      await runtime.close();
      await drop();
      fs.rmSync(mediaDir, { recursive: true, force: true });
    },
  };
  return app;
}
