import { describe, expect, it } from 'vitest';
import { FILE_PREFIXES } from '../../infra/bindings';
import { fileKey, heldKey } from '../../lib/files/object-store';

/** The S3 grants stop at the key layout's prefixes (infra/bindings.ts): the layout must keep to them. */
describe('the prefixes the bucket grants name', () => {
  it('are where files and held upload bytes live', () => {
    expect(FILE_PREFIXES).toEqual(['files/', 'uploads/']);
    expect(fileKey(1, '0123456789ABCDEF0123456789ABCDEF', 'u1').startsWith('files/')).toBe(true);
    expect(heldKey(1, '0123456789ABCDEF0123456789ABCDEF', 'u1', 0).startsWith('uploads/')).toBe(true);
  });
});
