/** The one clock every expiry is judged by; tests move it instead of sleeping. */
let source: () => number = Date.now;

export function now(): number {
  return source();
}

export function useClock(next: (() => number) | undefined): void {
  source = next ?? Date.now;
}
