import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import type { TestApp } from "../support/app";

/** Creates a function and (when `source` is given) deploys it; fails the test on any non-ok answer. */
export async function deployed(app: TestApp, key: string, slug: string, source: string, triggerType = "KEYWORD") {
  const created = await app.call("POST", "/functions", { key, body: { slug, name: `Function ${slug}`, trigger_type: triggerType } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const deploy = await app.call("POST", `/functions/${created.body.id}/deploy`, { key, body: { source } });
  expect(deploy.status).toBe(200);
  expect(deploy.body.status, JSON.stringify(deploy.body.diagnostics)).toBe("ok");
  return { id: created.body.id as string, versionId: deploy.body.version_id as string };
}

export interface LocalServer {
  url: string;
  hits: { method: string; path: string; body: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A loopback HTTP server that answers JSON about each request it got (a function's fetch target). */
export async function startLocalServer(): Promise<LocalServer> {
  const hits: LocalServer["hits"] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      hits.push({ method: request.method ?? "", path: request.url ?? "", body, headers: request.headers });
      response.writeHead(200, { "content-type": "application/json", "x-served-by": "local" });
      response.end(JSON.stringify({ ok: true, method: request.method, path: request.url, received: body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
