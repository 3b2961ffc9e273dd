import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ProvidedContext } from "vitest";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/lib/ports/db/open";
import { ensureReferenceData } from "@/lib/domain/organizations";
import type { DatabaseHandle } from "@/lib/ports/db/types";
import { createJobQueue } from "@/lib/ports/queue";

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: { kind: "postgres"; adminUrl: string; template: string } | { kind: "pglite"; dumpFile: string };
  }
}

type Template = ProvidedContext["dbTemplate"];

/**
 * Vitest runs this once for each project (vitest.config.ts) and for the root, in one process: the
 * first call makes the template, the others share it, and the last teardown removes it.
 */
const shared = globalThis as typeof globalThis & { __svcTestTemplate?: { made: Promise<{ template: Template; remove(): Promise<void> }>; users: number } };

/**
 * Migrates one database per run and hands every test file a copy: a Postgres template database when
 * DATABASE_URL is set, otherwise a PGlite data-dir dump (initdb + migrate once, not per file).
 */
export default async function setup(project: TestProject) {
  shared.__svcTestTemplate ??= { made: makeTemplate(), users: 0 };
  const holder = shared.__svcTestTemplate;
  holder.users++;
  const { template, remove } = await holder.made;
  project.provide("dbTemplate", template);
  return async () => {
    if (--holder.users > 0) return;
    shared.__svcTestTemplate = undefined;
    await remove();
  };
}

async function makeTemplate(): Promise<{ template: Template; remove(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const { default: postgres } = await import("postgres");
    const name = `svc_test_tpl_${process.pid}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name}`);
    await prepareTemplate(await openDatabase({ databaseUrl: withDatabase(url, name), max: 1 }));
    return {
      template: { kind: "postgres", adminUrl: url, template: name },
      remove: async () => {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  let dump: Blob | null = null;
  await prepareTemplate(await openDatabase({ dataDir: "memory://" }), async (handle) => {
    dump = await (handle.db as unknown as { $client: { dumpDataDir(c: "none"): Promise<Blob> } }).$client.dumpDataDir("none");
  });
  const dumpFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "svc-test-")), "template.tar");
  fs.writeFileSync(dumpFile, Buffer.from(await dump!.arrayBuffer()));
  return { template: { kind: "pglite", dumpFile }, remove: async () => fs.rmSync(path.dirname(dumpFile), { recursive: true, force: true }) };
}

/** What every test file starts from: the migrated schema, the reference data and pg-boss's schema. */
async function prepareTemplate(handle: DatabaseHandle, beforeClose?: (handle: DatabaseHandle) => Promise<void>): Promise<void> {
  await ensureReferenceData(handle.db);
  // pg-boss creates its schema on first start: once here rather than in every test file.
  await (await createJobQueue(handle)).stop();
  await beforeClose?.(handle);
  await handle.close();
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
