import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import { discardEngine, quickjs } from './engine';

/**
 * One QuickJS runtime and context: nothing of the host is in it but the functions handed to `install`,
 * which take and give primitives only (objects cross as JSON text). A sandbox serves one run of a
 * request's scripts and is disposed after it, so nothing a script does outlives the run. It runs inside
 * the script worker (lib/scripts/script-worker.ts), never on a thread that serves requests.
 */

/** The runtime's own heap limit, inside the wasm instance's 64 MiB (lib/scripts/engine.ts). */
const MEMORY_LIMIT = 48 * 1024 * 1024;
/**
 * QuickJS's stack limit. The wasm frames also use Node's native stack (~1 MB), so a deeper QuickJS limit
 * would let deep recursion overflow the host's stack first; 128 KiB leaves a wide margin (measured: a
 * 100 000-deep JSON.parse and an unbounded recursion both stop as a catchable `stack overflow`).
 */
const STACK_LIMIT = 128 * 1024;

export type Primitive = string | number | bigint | boolean | null | undefined;
export type HostFunction = (...args: Primitive[]) => Primitive;

export type Outcome =
  | { readonly kind: 'ok'; readonly value: Primitive }
  | { readonly kind: 'thrown'; readonly message: string }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'memory' }
  /** `stop(reason)` was called by a host function: the run cannot go on. */
  | { readonly kind: 'stopped'; readonly reason: string }
  /** The engine failed beneath the script (Node's own stack overflowed inside the wasm, an abort). */
  | { readonly kind: 'crashed'; readonly message: string };

/** The engine itself failed under a script (not the script's own error): the run cannot go on. */
export class EngineFailure extends Error {
  override name = 'EngineFailure';
}

export class Sandbox {
  private deadline = 0;
  private stopping: string | undefined;
  private broken = false;

  private constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly vm: QuickJSContext,
  ) {
    runtime.setMemoryLimit(MEMORY_LIMIT);
    runtime.setMaxStackSize(STACK_LIMIT);
    runtime.setInterruptHandler(() => this.stopping !== undefined || Date.now() > this.deadline);
  }

  static async open(): Promise<Sandbox> {
    const engine = await quickjs();
    const runtime = engine.newRuntime();
    return new Sandbox(runtime, runtime.newContext());
  }

  /** Asks the running script to stop at the engine's next check; what it returns is then discarded. */
  stop(reason: string): void {
    this.stopping ??= reason;
  }

  /** Why a host function stopped the run, if one did. */
  get stopped(): string | undefined {
    return this.stopping;
  }

  /**
   * Evaluates `prelude`, a function expression, and calls it with an object of the host functions and
   * `data`; the prelude builds the script's globals from them.
   */
  install(prelude: string, host: Readonly<Record<string, HostFunction>>, data: string, deadline: number) {
    const { vm } = this;
    const outcome = this.guard(deadline, () => {
      const hostObject = vm.newObject();
      for (const [name, fn] of Object.entries(host)) {
        const handle = vm.newFunction(name, (...args) =>
          this.toHandle(fn(...args.map((arg) => vm.dump(arg)))),
        );
        vm.setProp(hostObject, name, handle);
        handle.dispose();
      }
      const made = vm.evalCode(prelude, 'prelude.js');
      if (made.error) {
        // Every handle freed: a runtime disposed with one alive aborts the engine.
        hostObject.dispose();
        return made;
      }
      const text = vm.newString(data);
      const result = vm.callFunction(made.value, vm.undefined, hostObject, text);
      for (const handle of [made.value, hostObject, text]) handle.dispose();
      return result;
    });
    if (outcome.kind !== 'ok') throw new EngineFailure(`the prelude failed: ${JSON.stringify(outcome)}`);
  }

  /** Runs one piece of script code until `deadline` (epoch ms) at the latest. */
  evaluate(code: string, filename: string, deadline: number): Outcome {
    return this.guard(deadline, () => this.vm.evalCode(code, filename));
  }

  dispose(): void {
    if (this.broken) return;
    try {
      this.vm.dispose();
      this.runtime.dispose();
    } catch {
      discardEngine();
    }
  }

  private guard(deadline: number, run: () => ReturnType<QuickJSContext['evalCode']>): Outcome {
    if (this.broken) throw new EngineFailure('the engine failed earlier in this run');
    this.deadline = deadline;
    try {
      return this.settle(run());
    } catch (error) {
      // A host-level failure inside the wasm: the instance's state is unknown, so neither it nor this
      // runtime is touched again, and the next run compiles a fresh instance.
      this.broken = true;
      discardEngine();
      return { kind: 'crashed', message: (error as Error).message };
    }
  }

  private settle(result: ReturnType<QuickJSContext['evalCode']>): Outcome {
    if (!result.error) {
      const value = this.vm.dump(result.value) as Primitive;
      result.value.dispose();
      return { kind: 'ok', value: typeof value === 'object' ? null : value };
    }
    const error = this.vm.dump(result.error) as { name?: string; message?: string } | string;
    result.error.dispose();
    const { name = 'Error', message = String(error) } = typeof error === 'object' ? (error ?? {}) : {};
    if (this.stopping !== undefined) return { kind: 'stopped', reason: this.stopping };
    if (name === 'InternalError' && message === 'interrupted') return { kind: 'timeout' };
    if (name === 'InternalError' && message === 'out of memory') return { kind: 'memory' };
    return { kind: 'thrown', message: `${name}: ${message}` };
  }

  private toHandle(value: Primitive): QuickJSHandle {
    const { vm } = this;
    switch (typeof value) {
      case 'string':
        return vm.newString(value);
      case 'number':
        return vm.newNumber(value);
      case 'bigint':
        return vm.newBigInt(value);
      case 'boolean':
        return value ? vm.true : vm.false;
      default:
        return value === null ? vm.null : vm.undefined;
    }
  }
}
