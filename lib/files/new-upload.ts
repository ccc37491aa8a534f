import { now } from '../clock';
import { settings } from '../config/settings';
import { BadRequestError, NoFilePartError } from '../errors';
import type { Owner } from './model';
import type { UploadForm } from './multipart-form';
import * as repository from './repository';
import { type Answer, answerOf, receiveFile, type StoredFile } from './upload';

/** `POST /api/binaries/upload?id=…`: a new file for the site or record `id` (not checked, as in the reference). */
export async function uploadNew(owner: Owner, id: string | undefined, form: UploadForm): Promise<Answer> {
  const file = requireFile(form);
  const referenceId = Number(id);
  if (!/^\d{1,15}$/.test(id ?? '') || referenceId === 0) {
    throw new BadRequestError(`id ${id} is not a positive number`);
  }
  const outcome = await receiveFile(
    {
      owner,
      referenceId,
      file,
      bytes: file.bytes,
      fileHash: fileHashOf(form),
      maxSizeMb: settings().BinaryStorage.MaxSize,
    },
    async (stored) => {
      const time = now();
      const binary = await repository.insertBinary({
        ...rowOf(stored, owner, time),
        binaryId: await repository.nextBinaryId(),
        referenceId,
        attached: false,
        creator: owner.userId,
        createdAt: time,
      });
      return { id: binary.binaryId, message: binary.guid };
    },
  );
  return answerOf(outcome, 0);
}

/** The row fields a stored file determines. */
export function rowOf(stored: StoredFile, owner: Owner, time: number) {
  return {
    tenantId: owner.tenantId,
    guid: stored.guid,
    fileName: stored.fileName,
    extension: extensionOf(stored.fileName),
    contentType: stored.contentType,
    size: stored.size,
    objectKey: stored.objectKey,
    updator: owner.userId,
    updatedAt: time,
  };
}

/** `Path.GetExtension`: from the last dot, dot included; none for a name without one. */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : '';
}

/** No file part: HTTP 404, as web-api.txt 7.2 has it, with an ApiResult saying so. */
export function requireFile(form: UploadForm) {
  if (!form.file) throw new NoFilePartError();
  return form.file;
}

export function fileHashOf(form: UploadForm): string | undefined {
  const hash = form.fields.FileHash;
  return hash === undefined || hash === '' ? undefined : hash;
}
