import type { newVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';

/**
 * QuickJS compiled to WebAssembly (reference/library-choices.md 3): the sync release build, with the wasm
 * inside the module (the singlefile variant), so a bundle needs no file beside it. Compiled on the first
 * request that has scripts to run, not at import: a site without scripts never pays for it. The variant
 * (~800 KB, the wasm as text) and the library around it (~36 KB) are imported dynamically too, so the
 * bundles keep them in chunks that only that first request reads: the cold start of items-* does not
 * compile them.
 */

/** 1024 pages of 64 KiB: the whole instance, every runtime in it, can never hold more than 64 MiB. */
const WASM_PAGES = 1024;

let loading: Promise<QuickJSWASMModule> | undefined;

type WasmMemory = NonNullable<Parameters<typeof newVariant>[1]['wasmMemory']>;
// Node has WebAssembly.Memory; the project's TypeScript libraries (no DOM) do not declare it.
const { Memory } = (
  globalThis as unknown as { WebAssembly: { Memory: new (size: object) => Extract<WasmMemory, object> } }
).WebAssembly;

export function quickjs(): Promise<QuickJSWASMModule> {
  loading ??= Promise.all([
    import('quickjs-emscripten-core'),
    import('@jitl/quickjs-singlefile-cjs-release-sync'),
  ]).then(([{ newQuickJSWASMModuleFromVariant, newVariant }, { default: variant }]) =>
    newQuickJSWASMModuleFromVariant(
      // A fixed maximum is what caps memory: the runtime's own limit misses big strings and arrays
      // (quickjs-emscripten issues 255 and 271), and the wasm heap would otherwise grow to gigabytes.
      newVariant(variant, { wasmMemory: new Memory({ initial: 256, maximum: WASM_PAGES }) }),
    ),
  );
  return loading;
}

/**
 * Drops the instance after the engine failed beneath the script (a host stack overflow inside the wasm,
 * an abort): its state cannot be trusted, so the next request compiles a fresh one.
 */
export function discardEngine(): void {
  loading = undefined;
}
