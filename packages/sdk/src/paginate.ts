import type { paths } from "./schema.js";
import type { SvcClient } from "./client.js";
import { SvcApiError } from "./errors.js";

type GetPath = { [P in keyof paths]: paths[P] extends { get: object } ? P : never }[keyof paths];
type GetOperation<P extends GetPath> = paths[P]["get"];
type OkBody<P extends GetPath> = GetOperation<P> extends { responses: { 200: { content: { "application/json": infer B } } } } ? B : never;

/** The GET paths that answer the API's list envelope `{ object: "list", data, has_more }` of items with an id. */
export type ListPath = { [P in GetPath]: OkBody<P> extends { object: "list"; data: { id: string }[]; has_more: boolean } ? P : never }[GetPath];
/** The item type of a list path, e.g. `ListItem<"/messages">` is components["schemas"]["Message"]. */
export type ListItem<P extends ListPath> = OkBody<P> extends { data: (infer I)[] } ? I : never;

type Parameters_<P extends ListPath> = GetOperation<P> extends { parameters: infer X } ? X : never;
/** The path's parameters; `query.starting_after` resumes after that id, `query.limit` is the page size. */
export type ListInit<P extends ListPath> = {
  params?: { query?: Parameters_<P> extends { query?: infer Q } ? Q : never } & (Parameters_<P> extends { path: infer Path }
    ? [Path] extends [never]
      ? { path?: never }
      : { path: Path }
    : { path?: never });
  signal?: AbortSignal;
};
// `{} extends T` is true exactly when every field of T is optional: then the init argument may be left out.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type InitArg<P extends ListPath> = {} extends ListInit<P> ? [init?: ListInit<P>] : [init: ListInit<P> & { params: unknown }];

type LooseGet = (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * Every item of a list, page after page: each next page asks for the items `starting_after` the last
 * id of the previous one, until `has_more` is false. Errors are thrown as SvcApiError.
 *
 *   for await (const conversation of paginate(client, "/conversations", { params: { query: { limit: 50 } } })) ...
 */
export async function* paginate<P extends ListPath>(client: SvcClient, path: P, ...[init]: InitArg<P>): AsyncGenerator<ListItem<P>, void, undefined> {
  const get = client.GET as unknown as LooseGet;
  const params = (init?.params ?? {}) as { query?: Record<string, unknown>; path?: Record<string, unknown> };
  let cursor = params.query?.starting_after as string | undefined;
  for (;;) {
    const { data, error, response } = await get(path, {
      ...init,
      params: { ...params, query: { ...params.query, ...(cursor ? { starting_after: cursor } : {}) } },
    });
    if (!response.ok) throw new SvcApiError(response, error);
    const page = data as { data: ListItem<P>[]; has_more: boolean };
    for (const item of page.data) yield item;
    const last = page.data.at(-1) as { id?: unknown } | undefined;
    if (!page.has_more || typeof last?.id !== "string") return;
    cursor = last.id;
  }
}

/** All items of a list (paginate collected); `max` stops early, a guard against unbounded lists. */
export async function listAll<P extends ListPath>(
  client: SvcClient,
  path: P,
  ...[init, options]: [...InitArg<P>, options?: { max?: number }]
): Promise<ListItem<P>[]> {
  const items: ListItem<P>[] = [];
  const max = options?.max ?? Infinity;
  if (max <= 0) return items;
  for await (const item of paginate(client, path, ...([init] as InitArg<P>))) {
    items.push(item);
    if (items.length >= max) break;
  }
  return items;
}
