import type { Principal } from '../accounts/principal';
import { MAX_LENGTH } from '../bounds';
import { basePath } from '../config/base-path';
import { OutOfBoundsError, UnsupportedInputError } from '../errors';
import { commitInlineItem, discardingOnFailure, isBase64, storeInlineFile } from '../files/inline-files';
import * as repository from '../files/repository';
import type { TransactItem } from './attachments';

/**
 * `ImageHash` of a record write (CONTRACT 5.1; the reference's ResultModel.SetImageValue): each image is
 * stored as a file of the record, like an inline attachment, and its Markdown reference
 * `![<Alt>](<base>/binaries/<guid>/show)` goes into the text it names: Body, the comment the write adds,
 * or a Description column. Without a position it goes at the end, so an update that sends only the image
 * adds it to the stored text.
 */

export interface ImageInput {
  readonly Base64: string;
  readonly Extension?: string;
  readonly Alt?: string;
  readonly HeadNewLine?: boolean;
  readonly EndNewLine?: boolean;
  /** Where in the text, in UTF-16 units as the reference's string.Insert; -1 or past the end: at the end. */
  readonly Position?: number;
}

/** An image checked before anything is stored: the text it goes into, and its file's name and type. */
export interface CheckedImage {
  readonly target: string;
  readonly fileName: string;
  readonly contentType: string;
  readonly input: ImageInput;
}

/** The texts of a record write that images can go into. */
export interface RecordTexts {
  readonly body?: string;
  /** The comment the write adds (reference: the comment created, or a new one). */
  readonly comment?: string | null;
  readonly descriptions: Readonly<Record<string, string>>;
}

/** The image types the reference's MimeKit names for an extension: only `image/*` may be shown inline. */
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.jpe': 'image/jpeg',
  '.gif': 'image/gif',
  '.bmp': 'image/bmp',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.avif': 'image/avif',
};

/** The images of a write, checked without storing anything (bulkupsert checks every item first). */
export function checkedImages(hash: Readonly<Record<string, ImageInput>> | null | undefined): CheckedImage[] {
  const images: CheckedImage[] = [];
  for (const [key, input] of Object.entries(hash ?? {})) {
    const target = targetOf(key);
    if (!target) {
      throw new UnsupportedInputError(
        `ImageHash.${key}: an image goes into Body, Comments or a Description column.`,
      );
    }
    if (images.some((image) => image.target === target))
      throw new UnsupportedInputError(`ImageHash.${key}: ${target} is named twice.`);
    const given = (input.Extension ?? '.png').trim().toLowerCase();
    const extension = given.startsWith('.') ? given : `.${given}`;
    const contentType = IMAGE_TYPES[extension];
    if (!contentType) {
      throw new UnsupportedInputError(
        `ImageHash.${key}.Extension: ${JSON.stringify(input.Extension)} is not an image extension (${Object.keys(IMAGE_TYPES).join(', ')}).`,
      );
    }
    if (input.Base64.trim() === '' || !isBase64(input.Base64))
      throw new UnsupportedInputError(`ImageHash.${key}.Base64: not valid base64.`);
    images.push({ target, fileName: `image${extension}`, contentType, input });
  }
  return images;
}

/**
 * Stores the images as files of the record and puts their references into the texts; the writes that
 * keep the files go into the record's transaction. A failure leaves no stored bytes behind.
 */
export async function withImages(
  principal: Principal,
  recordId: number,
  images: readonly CheckedImage[],
  texts: RecordTexts,
  time: number,
): Promise<{ texts: RecordTexts; items: TransactItem[] }> {
  const items: TransactItem[] = [];
  if (images.length === 0) return { texts, items };
  return discardingOnFailure(
    () => items,
    async () => {
      let { body, comment } = texts;
      const descriptions = { ...texts.descriptions };
      for (const image of images) {
        const { input } = image;
        const binary = await storeInlineFile(
          principal,
          recordId,
          `ImageHash.${image.target}`,
          { Name: image.fileName, Base64: input.Base64, ContentType: image.contentType },
          time,
        );
        items.push(repository.insertItem(binary), commitInlineItem(binary));
        const markdown = `![${input.Alt ?? 'image'}](${basePath()}/binaries/${binary.guid.toLowerCase()}/show)`;
        if (image.target === 'Body') body = inserted(body, markdown, input, 'Body', MAX_LENGTH.text);
        else if (image.target === 'Comments')
          comment = inserted(comment ?? undefined, markdown, input, 'Comments', MAX_COMMENT);
        else {
          const target = image.target;
          descriptions[target] = inserted(descriptions[target], markdown, input, target, MAX_LENGTH.text);
        }
      }
      return { texts: { body, comment, descriptions }, items };
    },
  );
}

/** The longest comment a write takes (lib/items/schemas.ts). */
const MAX_COMMENT = 65_536;

/** The reference's InsertImageText: the newlines asked for around it, at Position or at the end. */
function inserted(
  text: string | undefined,
  markdown: string,
  input: ImageInput,
  property: string,
  max: number,
): string {
  const before = text ?? '';
  const image = `${input.HeadNewLine ? '\n' : ''}${markdown}${input.EndNewLine ? '\n' : ''}`;
  const at = input.Position ?? -1;
  const result =
    at === -1 || at >= before.length ? before + image : before.slice(0, at) + image + before.slice(at);
  if (result.length > max) throw new OutOfBoundsError(property, `more than ${max} characters with its image`);
  return result;
}

/** `body` → `Body`, `descriptiona` → `DescriptionA`, `comments` → `Comments`: keys match without case. */
function targetOf(key: string): string | undefined {
  const lower = key.toLowerCase();
  if (lower === 'body') return 'Body';
  if (lower === 'comments') return 'Comments';
  const letter = /^description([a-z])$/.exec(lower)?.[1];
  return letter ? `Description${letter.toUpperCase()}` : undefined;
}
