import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { webhookAttempts } from "@/lib/db/schema";
import { JOBS } from "@/lib/jobs";
import { JobPayloadError, defineJob, queueOptionsOf, runJob } from "@/lib/jobs/define";
import { WEBHOOK_DELIVER_JOB } from "@/lib/domain/webhooks/enqueue";
import { servicesOf } from "@/lib/server/runtime";
import { createTestApp, type TestApp } from "../support/app";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

const run = { id: "job-1", retryCount: 0, retryLimit: 3 };

describe("job definitions", () => {
  it("keep each queue's retry, expiry and concurrency policy", () => {
    const policies = Object.fromEntries(JOBS.map((job) => [job.name, queueOptionsOf(job)]));
    expect(policies).toEqual({
      "provider.send": { localConcurrency: 50, retryLimit: 6, retryDelay: 2, retryBackoff: true, retryDelayMax: 300, expireInSeconds: 60 },
      "ingest.process": { localConcurrency: 20, retryLimit: 10, retryDelay: 1, retryBackoff: true, retryDelayMax: 120, expireInSeconds: 60 },
      "ingest.status-retry": { localConcurrency: 20, retryLimit: 5, retryDelay: 1, retryBackoff: true, retryDelayMax: 30, expireInSeconds: 30 },
      "webhook.deliver": { localConcurrency: 400, groupConcurrency: 100, retryLimit: 5, retryDelay: 1, expireInSeconds: 30 },
      "media.cache": { localConcurrency: 5, retryLimit: 3, retryDelay: 1, retryBackoff: true, retryDelayMax: 10, expireInSeconds: 60 },
      "media.release": { retryLimit: 5, retryDelay: 1, expireInSeconds: 30 },
      "media.expire": { retryLimit: 3, retryDelay: 30, expireInSeconds: 300 },
      "flows.publish": { localConcurrency: 2, retryLimit: 5, retryDelay: 5, retryBackoff: true, retryDelayMax: 120, expireInSeconds: 120 },
      "flows.expire-dispatches": { retryLimit: 3, retryDelay: 30, expireInSeconds: 300 },
      "functions.expire-invocations": { retryLimit: 3, retryDelay: 30, expireInSeconds: 300 },
      "flows.register-key": { localConcurrency: 2, retryLimit: 8, retryDelay: 10, retryBackoff: true, retryDelayMax: 900, expireInSeconds: 120 },
      "automations.evaluate": { localConcurrency: 20, retryLimit: 5, retryDelay: 1, retryBackoff: true, retryDelayMax: 60, expireInSeconds: 120 },
      "automations.step": { localConcurrency: 20, retryLimit: 3, retryDelay: 2, retryBackoff: true, retryDelayMax: 60, expireInSeconds: 120 },
      "automations.resume": { localConcurrency: 10, retryLimit: 3, retryDelay: 2, retryBackoff: true, retryDelayMax: 60, expireInSeconds: 120 },
      "agents.provision": { localConcurrency: 2, retryLimit: 5, retryDelay: 5, retryBackoff: true, retryDelayMax: 120, expireInSeconds: 120 },
      "agents.respond": { localConcurrency: 20, retryLimit: 3, retryDelay: 2, retryBackoff: true, retryDelayMax: 60, expireInSeconds: 120 },
      "contacts.erase-files": { localConcurrency: 2, retryLimit: 10, retryDelay: 5, retryBackoff: true, retryDelayMax: 3600, expireInSeconds: 300 },
      "broadcasts.run": { localConcurrency: 4, retryLimit: 10, retryDelay: 2, retryBackoff: true, retryDelayMax: 60, expireInSeconds: 120 },
      "broadcasts.release": { retryLimit: 10, retryDelay: 5, retryBackoff: true, retryDelayMax: 300, expireInSeconds: 120 },
      "audit.expire": { retryLimit: 3, retryDelay: 60, expireInSeconds: 600 },
    });
  });

  it("a payload that fails the schema is refused with the job and field named, and the handler never runs", async () => {
    const handler = vi.fn(async () => {});
    const job = defineJob({ name: "test.typed", schema: z.object({ messageId: z.string() }), retry: { limit: 0, delay: 1 }, expireInSeconds: 10, handler });
    const refused = runJob(job, servicesOf(app.runtime), { messageId: 42 }, run);
    await expect(refused.catch((error: unknown) => JobPayloadError.is(error))).resolves.toBe(true);
    await expect(refused).rejects.toThrow(/Job 'test\.typed' got a malformed payload: messageId: /);
    expect(handler).not.toHaveBeenCalled();

    await runJob(job, servicesOf(app.runtime), { messageId: "msg_1" }, run);
    expect(handler).toHaveBeenCalledWith(
      expect.objectContaining({ actor: { type: "system" }, ports: app.runtime.ports, settings: app.runtime.settings }),
      { messageId: "msg_1" },
      run,
    );
  });

  it("every registered job checks its payload", async () => {
    for (const job of JOBS) {
      const refused = await runJob(job, servicesOf(app.runtime), "not a payload", run).then(
        () => null,
        (error: unknown) => error,
      );
      expect(JobPayloadError.is(refused), job.name).toBe(true);
    }
  });

  it("through the queue: a malformed webhook.deliver fails as a payload error and attempts nothing", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await app.runtime.ports.queue.send(WEBHOOK_DELIVER_JOB, { deliveryId: "wd_missing", attempt: 0 });
      expect(await app.runtime.ports.queue.drain()).toBeGreaterThanOrEqual(1);
      const failure = errors.mock.calls.flat().find((arg) => JobPayloadError.is(arg));
      expect(failure).toMatchObject({ job: WEBHOOK_DELIVER_JOB, issues: [expect.stringMatching(/^attempt: /)] });
    } finally {
      errors.mockRestore();
    }
    expect(await app.db.select().from(webhookAttempts)).toEqual([]);
  });
});
