import type { Md5State } from './md5-state';
import type { Part } from './object-store';

/** Who uploads: the caller's tenant and user, all that file storage knows of accounts. */
export interface Owner {
  readonly tenantId: number;
  readonly userId: number;
}

/** One stored file (the reference's Binaries row, reference/pleasanter-behaviour.md §4.7). */
export interface Binary {
  readonly binaryId: number;
  readonly tenantId: number;
  /** 32 uppercase hexadecimal characters. */
  readonly guid: string;
  /** The `id` given at upload (a site or a record), then the record the file is attached to. */
  readonly referenceId: number;
  /** True once attached to a record: only then may the record's writers see and replace it. */
  readonly attached: boolean;
  readonly fileName: string;
  readonly extension: string;
  readonly contentType: string;
  readonly size: number;
  /** Where the bytes are (object-store.ts fileKey). */
  readonly objectKey: string;
  readonly creator: number;
  readonly updator: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * A chunked upload in progress. It moves only by conditional writes on `received` (and `upload`), so two
 * copies of a chunk cannot both advance it; `last` lets a resent chunk that was already applied get its
 * answer again instead of a 400.
 */
export interface UploadState {
  readonly tenantId: number;
  readonly userId: number;
  /** The state's key: what identifies the upload across requests (CONTRACT section 6). */
  readonly key: string;
  /** This upload's own id: part of every object key and every condition. */
  readonly upload: string;
  /** The GUID of the file being built: new, or the path GUID when overwriting. */
  readonly guid: string;
  readonly referenceId: number;
  readonly fileName: string;
  readonly contentType: string;
  readonly total: number;
  readonly received: number;
  readonly md5: Md5State;
  readonly objectKey: string;
  readonly multipartId?: string;
  readonly parts: readonly Part[];
  /** Objects holding the received bytes not yet in a part, in order, with their sizes. */
  readonly held: readonly { readonly key: string; readonly size: number }[];
  /** Held objects whose bytes are in a part now: deleted once the upload is complete. */
  readonly spent: readonly string[];
  /** The chunk that brought `received` to its value. */
  readonly last?: { readonly offset: number; readonly md5: string };
  /** The answer once the upload is complete and registered. */
  readonly result?: {
    readonly id: number;
    readonly message: string;
    readonly limitPerDate?: number;
    readonly limitRemaining?: number;
  };
  /** A chunk at `received` being applied now: its MD5 and since when (ms). */
  readonly claim?: { readonly md5: string; readonly at: number };
}
