"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { Wordmark } from "@/components/shell/wordmark";
import "swagger-ui-dist/swagger-ui.css";

/** The OpenAPI document this page renders: the one the API serves (lib/api/openapi.ts). */
export const OPENAPI_URL = "/api/v1/openapi.json";

/**
 * The interactive API reference: Swagger UI's prebuilt bundle (swagger-ui-dist), bundled by the app
 * and loaded on this page only; nothing comes from a CDN. Every operation is listed with its summary,
 * operationId and scope note; "Try it out" calls this same origin with the key given under
 * Authorize, which stays in this tab's memory only.
 *
 * Why the prebuilt bundle rather than swagger-ui-react: Turbopack (Next 16's bundler) drops the
 * side-effect registrations of Swagger UI's OpenAPI 3.1 resolver (ApiDOM) when it bundles the
 * unbundled build, and every operation then spins forever on "refract is not a function". The
 * prebuilt bundle carries its own React and renders into the node given here.
 */
export function ApiReference() {
  const container = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<"loading" | "ready" | "failed">("loading");

  useEffect(() => {
    let cancelled = false;
    import("swagger-ui-dist/swagger-ui-es-bundle.js")
      .then(({ default: SwaggerUI }) => {
        if (cancelled || !container.current) return;
        // The bundle's own React owns this node; ours never renders into it.
        container.current.replaceChildren();
        SwaggerUI({
          domNode: container.current,
          url: OPENAPI_URL,
          deepLinking: true,
          docExpansion: "list",
          displayOperationId: true,
          displayRequestDuration: true,
          defaultModelsExpandDepth: 0,
          // Never take a document URL or settings from the page's query string, and never call the
          // public validator: the page renders this server's document only.
          queryConfigEnabled: false,
          validatorUrl: null,
        });
        setStatus("ready");
      })
      .catch(() => setStatus("failed"));
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <div className="min-h-dvh bg-white">
      <header className="flex h-14 items-center justify-between border-b border-slate-200 px-6">
        <div className="flex items-center gap-3">
          <Link href="/" aria-label="svc home" className="rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
            <Wordmark />
          </Link>
          <span className="text-sm font-medium text-slate-500">API reference</span>
        </div>
        <a
          href={OPENAPI_URL}
          className="text-sm font-medium text-slate-600 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          openapi.json
        </a>
      </header>
      <main className="mx-auto max-w-6xl pb-16">
        {status === "loading" && <p className="px-6 py-10 text-sm text-slate-500">Loading the API reference…</p>}
        {status === "failed" && (
          <p className="px-6 py-10 text-sm text-red-700">The API reference could not load. Reload the page, or read {OPENAPI_URL} directly.</p>
        )}
        <div ref={container} />
      </main>
    </div>
  );
}
