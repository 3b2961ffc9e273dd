// Evaluated inside QuickJS the first time a run touches one of its globals (see ../prelude.mjs): URL and
// URLSearchParams. Parsing and serialising are the worker's own WHATWG implementation (`host`), so the
// function sees exactly what Node would.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- an expression: ../prelude.mjs evaluates the file for this function
(function installUrl(host, internals) {
  "use strict";

  const COMPONENTS = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"];
  const SETTABLE = new Set(["href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"]);

  function pairsFrom(init) {
    if (init === undefined || init === null) return [];
    if (init instanceof URLSearchParams) return init.toArray();
    if (typeof init === "object" && typeof init[Symbol.iterator] === "function") {
      return Array.from(init, (pair) => {
        const entry = Array.from(pair);
        if (entry.length !== 2) throw new TypeError("URLSearchParams: each pair must have exactly two items");
        return [String(entry[0]), String(entry[1])];
      });
    }
    if (typeof init === "object") return Object.keys(init).map((key) => [key, String(init[key])]);
    return JSON.parse(host.searchParse(String(init)));
  }

  class URLSearchParams {
    #pairs;
    #onChange;
    constructor(init, onChange) {
      this.#pairs = pairsFrom(init);
      this.#onChange = typeof onChange === "function" ? onChange : null;
    }
    toArray() {
      return this.#pairs.map((pair) => [pair[0], pair[1]]);
    }
    replaceAll(search) {
      this.#pairs = JSON.parse(host.searchParse(search));
    }
    #changed() {
      if (this.#onChange) this.#onChange(this.toString());
    }
    get size() {
      return this.#pairs.length;
    }
    append(name, value) {
      this.#pairs.push([String(name), String(value)]);
      this.#changed();
    }
    delete(name, value) {
      const key = String(name);
      this.#pairs = this.#pairs.filter((pair) => pair[0] !== key || (value !== undefined && pair[1] !== String(value)));
      this.#changed();
    }
    get(name) {
      const found = this.#pairs.find((pair) => pair[0] === String(name));
      return found ? found[1] : null;
    }
    getAll(name) {
      return this.#pairs.filter((pair) => pair[0] === String(name)).map((pair) => pair[1]);
    }
    has(name, value) {
      return this.#pairs.some((pair) => pair[0] === String(name) && (value === undefined || pair[1] === String(value)));
    }
    set(name, value) {
      const key = String(name);
      const index = this.#pairs.findIndex((pair) => pair[0] === key);
      if (index === -1) this.#pairs.push([key, String(value)]);
      else this.#pairs = this.#pairs.filter((pair, i) => i === index || pair[0] !== key).map((pair) => (pair[0] === key ? [key, String(value)] : pair));
      this.#changed();
    }
    sort() {
      this.#pairs = this.#pairs
        .map((pair, index) => [pair, index])
        .sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]))
        .map((item) => item[0]);
      this.#changed();
    }
    forEach(callback, thisArg) {
      for (const [name, value] of this.toArray()) callback.call(thisArg, value, name, this);
    }
    *entries() {
      yield* this.toArray();
    }
    *keys() {
      for (const pair of this.toArray()) yield pair[0];
    }
    *values() {
      for (const pair of this.toArray()) yield pair[1];
    }
    [Symbol.iterator]() {
      return this.entries();
    }
    toString() {
      return host.searchSerialize(JSON.stringify(this.#pairs));
    }
    get [Symbol.toStringTag]() {
      return "URLSearchParams";
    }
  }

  function parse(input, base) {
    const parts = host.urlParse(String(input), base === undefined ? undefined : String(base));
    if (parts === null) throw new TypeError(`Invalid URL: ${String(input)}`);
    return JSON.parse(parts);
  }

  class URL {
    #parts;
    #searchParams;
    constructor(url, base) {
      this.#parts = parse(url, base);
      this.#searchParams = new URLSearchParams(this.#parts.search, (search) => {
        this.#parts = JSON.parse(host.urlSet(this.#parts.href, "search", search));
      });
    }
    static canParse(url, base) {
      return host.urlParse(String(url), base === undefined ? undefined : String(base)) !== null;
    }
    get searchParams() {
      return this.#searchParams;
    }
    toString() {
      return this.#parts.href;
    }
    toJSON() {
      return this.#parts.href;
    }
    get [Symbol.toStringTag]() {
      return "URL";
    }
    /** Setters re-parse through the host; an invalid value leaves the URL unchanged, as browsers do. */
    setComponent(name, value) {
      const next = host.urlSet(this.#parts.href, name, String(value));
      if (next === null) {
        if (name === "href") throw new TypeError(`Invalid URL: ${String(value)}`);
        return;
      }
      this.#parts = JSON.parse(next);
      if (name === "href" || name === "search") this.#searchParams.replaceAll(this.#parts.search);
    }
    getComponent(name) {
      return this.#parts[name];
    }
  }

  for (const name of COMPONENTS) {
    const descriptor = {
      get() {
        return this.getComponent(name);
      },
      configurable: true,
      enumerable: true,
    };
    if (SETTABLE.has(name)) {
      descriptor.set = function (value) {
        this.setComponent(name, value);
      };
    }
    Object.defineProperty(URL.prototype, name, descriptor);
  }

  internals.URL = URL;
  internals.URLSearchParams = URLSearchParams;
  internals.defineGlobals({ URL, URLSearchParams });
});
