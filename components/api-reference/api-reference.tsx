"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { Wordmark } from "@/components/shell/wordmark";
import "swagger-ui-dist/swagger-ui.css";
import "./swagger-contrast.css";
import type { SwaggerPlugin } from "swagger-ui-dist/swagger-ui-es-bundle.js";

/** The OpenAPI document this page renders: the one the API serves (lib/api/openapi.ts). */
const OPENAPI_URL = "/api/v1/openapi.json";

/**
 * Swagger UI's markup, made accessible where its options cannot: an "Operations" heading between the
 * document's h1 and the tags' h3 (heading order), and a label for the server picker (its own <label>
 * wraps the <select> with no text).
 */
const accessibilityPlugin: SwaggerPlugin = () => ({
  wrapComponents: {
    operations: (Original, { React }) =>
      function Operations(props) {
        return React.createElement(
          React.Fragment,
          null,
          React.createElement("h2", { className: "sr-only" }, "Operations"),
          React.createElement(Original, props),
        );
      },
    Servers: (Original, { React }) =>
      function Servers(props) {
        return React.createElement(
          React.Fragment,
          null,
          React.createElement("label", { htmlFor: "servers", className: "sr-only" }, "Server"),
          React.createElement(Original, props),
        );
      },
  },
});

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
          // Off: a deep link is an <a> inside each operation's toggle <button>, and a link inside a
          // button is unreachable for screen readers (axe: nested-interactive). Operations keep their ids.
          deepLinking: false,
          docExpansion: "list",
          displayOperationId: true,
          displayRequestDuration: true,
          defaultModelsExpandDepth: 0,
          // Never take a document URL or settings from the page's query string, and never call the
          // public validator: the page renders this server's document only.
          queryConfigEnabled: false,
          validatorUrl: null,
          plugins: [accessibilityPlugin],
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
      {/* Swagger UI renders its own <main> (the operations); until it does, the status is the main content. */}
      <div className="mx-auto max-w-6xl pb-16">
        {status === "loading" && (
          <main>
            <p className="px-6 py-10 text-sm text-slate-500">Loading the API reference…</p>
          </main>
        )}
        {status === "failed" && (
          <main>
            <p className="px-6 py-10 text-sm text-red-700">The API reference could not load. Reload the page, or read {OPENAPI_URL} directly.</p>
          </main>
        )}
        <div ref={container} />
      </div>
    </div>
  );
}
