import { createMD5 } from 'hash-wasm';

/**
 * The MD5 of a file received in chunks across Lambda invocations: hash-wasm's hasher state is saved after
 * each chunk and loaded for the next (reference/library-choices.md §2), so the file is never read back.
 * The state is bound to hash-wasm's exact build, which package.json pins; it is stored with this version,
 * and an upload begun under another one fails plainly instead of producing a wrong hash. The state holds
 * up to 63 bytes of the file's tail, so it is stored like the file.
 */
export const MD5_STATE_VERSION = 'hash-wasm@4.13.0';

export interface Md5State {
  readonly version: string;
  /** The hasher's saved state, base64. */
  readonly state: string;
}

/** The state after hashing `bytes` on top of `previous` (none: the file's first bytes). */
export async function continueMd5(previous: Md5State | undefined, bytes: Uint8Array): Promise<Md5State> {
  const hasher = await resume(previous);
  hasher.update(bytes);
  return { version: MD5_STATE_VERSION, state: Buffer.from(hasher.save()).toString('base64') };
}

/** The lowercase hex digest of everything hashed into `state`. */
export async function md5Digest(state: Md5State): Promise<string> {
  return (await resume(state)).digest('hex');
}

async function resume(previous: Md5State | undefined) {
  const hasher = await createMD5();
  hasher.init();
  if (previous) {
    if (previous.version !== MD5_STATE_VERSION) {
      throw new Error(`MD5 state of ${previous.version} cannot be resumed by ${MD5_STATE_VERSION}`);
    }
    hasher.load(Buffer.from(previous.state, 'base64'));
  }
  return hasher;
}
