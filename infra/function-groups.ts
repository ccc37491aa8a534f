/**
 * How the functions are spread over the nested stacks that hold them (infra/kiroku-stack.ts): by a hash
 * of the handler's name, so that a function stays in its stack whatever routes come and go. Four stacks of
 * at most 450 resources each hold some 300 functions; the hash spreads today's about evenly
 * (test/infra/kiroku-stack.test.ts checks every stack's room). Changing FUNCTION_GROUPS moves functions
 * between stacks, which a deployed stack cannot do for a named function: it is fixed.
 */
export const FUNCTION_GROUPS = 4;

/** FNV-1a (32 bits) of the name, modulo FUNCTION_GROUPS. */
export function groupOf(handler: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(handler, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % FUNCTION_GROUPS;
}
