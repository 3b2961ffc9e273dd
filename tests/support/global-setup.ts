import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/lib/ports/db/open";
import { ensureReferenceData } from "@/lib/domain/organizations";
import { createJobQueue } from "@/lib/ports/queue";

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: { kind: "postgres"; adminUrl: string; template: string } | { kind: "pglite"; dumpFile: string };
  }
}

/**
 * Migrates one database per run and hands every test file a copy: a Postgres template database when
 * DATABASE_URL is set, otherwise a PGlite data-dir dump (initdb + migrate once, not per file).
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const { default: postgres } = await import("postgres");
    const template = `svc_test_tpl_${process.pid}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${template} with (force)`);
    await admin.unsafe(`create database ${template}`);
    const templateUrl = withDatabase(url, template);
    const handle = await openDatabase({ databaseUrl: templateUrl, max: 1 });
    await ensureReferenceData(handle.db);
    await (await createJobQueue(handle)).stop();
    await handle.close();
    project.provide("dbTemplate", { kind: "postgres", adminUrl: url, template });
    return async () => {
      await admin.unsafe(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }
  const handle = await openDatabase({ dataDir: "memory://" });
  await ensureReferenceData(handle.db);
  // pg-boss creates its schema on first start: do it once here rather than in every test file.
  await (await createJobQueue(handle)).stop();
  const client = (handle.db as unknown as { $client: { dumpDataDir(c: "none"): Promise<Blob> } }).$client;
  const dump = await client.dumpDataDir("none");
  const dumpFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "svc-test-")), "template.tar");
  fs.writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide("dbTemplate", { kind: "pglite", dumpFile });
  return () => fs.rmSync(path.dirname(dumpFile), { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
