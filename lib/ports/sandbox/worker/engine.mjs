// @ts-check
/* global WebAssembly */
import { RELEASE_SYNC, newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten";
import { loadPreludeSources } from "./prelude.mjs";

/**
 * One QuickJS WebAssembly module per worker, instantiated on a WebAssembly.Memory with a `maximum`.
 * That bound is the memory limit (decisions.md "Hosted functions": 64 MiB, a hard cap): this build
 * cannot measure its allocations (no malloc_usable_size), so QuickJS's own `setMemoryLimit` only
 * refuses single allocations larger than the limit, never their sum. A failed grow makes malloc return
 * NULL, which QuickJS turns into an "out of memory" error.
 *
 * The memory starts at its maximum and so never grows: quickjs-emscripten reads some results (the
 * context of a promise job, a new promise's resolvers) through views taken before the call, and a
 * growth inside the call detaches them (quickjs-emscripten issue #240). A run that allocated a lot in
 * a promise job then left a stray context behind, and QuickJS aborted when its runtime was freed.
 * Pages are only backed when QuickJS first touches them, so the full size costs no resident memory.
 */

const PAGE_BYTES = 64 * 1024;
/** The build's INITIAL_MEMORY, the least it can be instantiated with. */
const INITIAL_BYTES = 16 * 1024 * 1024;
/** Below the heap: the build's static data and its 5 MB C stack (the stack pointer starts at 5.1 MB). */
const BELOW_HEAP_BYTES = 6 * 1024 * 1024;

/**
 * @typedef {object} Engine
 * @property {import("quickjs-emscripten").QuickJSWASMModule} module
 * @property {WebAssembly.Memory} memory
 * @property {import("./prelude.mjs").PreludeSources} prelude
 * @property {number} memoryCapBytes the heap the bounded memory leaves to QuickJS
 * @property {number} refusedGrowths allocations that found the memory full (see countRefusedGrowths)
 */

/**
 * quickjs-emscripten's JavaScript side copies strings and buffers into the module with `_malloc` and
 * does not check for NULL: on a full heap it would write them at address 0, over the module's static
 * data. Failing the allocation instead turns that into QuickJS's own out-of-memory error.
 * @param {import("quickjs-emscripten").QuickJSWASMModule} module
 */
function refuseNullAllocations(module) {
  const emscripten = /** @type {{ _malloc: (size: number) => number }} */ (/** @type {any} */ (module).module);
  const malloc = emscripten._malloc;
  emscripten._malloc = (size) => {
    const pointer = malloc(size);
    if (pointer === 0 && size > 0) throw Object.assign(new Error("out of memory"), { name: "InternalError" });
    return pointer;
  };
}

/**
 * The memory never grows, so every attempt is an allocation the cap refused. Counted because QuickJS
 * does not always say so: when it cannot even allocate its "out of memory" error it throws null.
 * @param {Engine} engine
 */
function countRefusedGrowths(engine) {
  const { memory } = engine;
  const grow = memory.grow.bind(memory);
  memory.grow = (pages) => {
    engine.refusedGrowths += 1;
    return grow(pages);
  };
}

/**
 * @param {number} memoryBytes the pool's per-run memory limit
 * @returns {Promise<Engine>}
 */
export async function loadEngine(memoryBytes) {
  const pages = Math.ceil(Math.max(INITIAL_BYTES, BELOW_HEAP_BYTES + memoryBytes) / PAGE_BYTES);
  const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
  // The release build, synchronous (no asyncify): host calls that wait are promises, driven by session.mjs.
  const quickjs = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory }));
  refuseNullAllocations(quickjs);
  const engine = { module: quickjs, memory, prelude: loadPreludeSources(), memoryCapBytes: memoryBytes, refusedGrowths: 0 };
  countRefusedGrowths(engine);
  return engine;
}
