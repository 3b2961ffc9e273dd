import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { QuickJSWASMModule } from "quickjs-emscripten";

/**
 * The engine a worker loads (lib/ports/sandbox/worker/engine.mjs): its WebAssembly memory has a
 * maximum, so the memory limit holds whatever QuickJS's own accounting does. Loaded here directly
 * (plain JavaScript, by file URL, as the worker loads it).
 */
interface Engine {
  module: QuickJSWASMModule;
  memory: WebAssembly.Memory;
}
const enginePath = pathToFileURL(path.join(process.cwd(), "lib", "ports", "sandbox", "worker", "engine.mjs")).href;
const MIB = 1024 * 1024;

async function loadEngine(memoryBytes: number): Promise<Engine> {
  const { loadEngine: load } = (await import(/* @vite-ignore */ enginePath)) as { loadEngine: (bytes: number) => Promise<Engine> };
  return load(memoryBytes);
}

describe("the engine's memory", () => {
  it("cannot grow past the limit", async () => {
    const engine = await loadEngine(64 * MIB);
    const pages = engine.memory.buffer.byteLength / (64 * 1024);
    expect(() => engine.memory.grow(80 * 16 - pages)).toThrow(RangeError);
  });

  it("is as large as it will ever be from the start, so views of it are never detached by a growth", async () => {
    const engine = await loadEngine(64 * MIB);
    expect(engine.memory.buffer.byteLength).toBe(70 * MIB);
    expect(() => engine.memory.grow(1)).toThrow(RangeError);
  });

  it("stops QuickJS at the limit even with QuickJS's own limit switched off", async () => {
    const engine = await loadEngine(32 * MIB);
    const runtime = engine.module.newRuntime();
    runtime.setMemoryLimit(-1);
    const context = runtime.newContext();
    const fits = context.evalCode("const small = new Uint8Array(8e6); small.length");
    expect(fits.error).toBeUndefined();
    fits.dispose();
    const tooMuch = context.evalCode("const parts = []; for (let i = 0; i < 10; i++) parts.push(new Uint8Array(8e6)); parts.length");
    expect(tooMuch.error && context.dump(tooMuch.error)).toMatchObject({ name: "InternalError", message: "out of memory" });
    tooMuch.dispose();
    context.dispose();
    runtime.dispose();
  });
});
