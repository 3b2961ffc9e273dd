export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">svc</h1>
      <p className="mt-3 text-slate-600">
        One REST API over several business-messaging platforms. Send every kind of message through one{" "}
        <code className="rounded bg-slate-200 px-1">POST /v1/messages</code>, receive signed webhooks for everything that comes in.
      </p>
      <ul className="mt-8 space-y-2 text-sm">
        <li>
          <a className="text-indigo-600 underline" href="/api/v1/openapi.json">
            OpenAPI 3.1 description
          </a>
        </li>
        <li className="text-slate-600">
          Try it: <code className="rounded bg-slate-200 px-1">curl localhost:3000/v1/identity -H &quot;Authorization: Bearer $SVC_KEY&quot;</code>
        </li>
      </ul>
    </main>
  );
}
