import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { type CsvEncoding, importEncoding } from '../csv/csv';
import { BadRequestError, InvalidInputError, InvalidJsonError } from '../errors';
import { parseUploadForm } from '../files/multipart-form';
import { parseJsonText } from '../http/json-text';
import { type AccountImportParameters, accountImportParameters } from './schemas';

export interface AccountImportRequest {
  readonly parameters: AccountImportParameters;
  readonly encoding: CsvEncoding;
  readonly file?: Uint8Array;
}

/**
 * The reference's import request: multipart/form-data with `parameters` (the JSON) and the file (the
 * first file part, whatever its name). Read here until the middleware stack reads `parameters` itself.
 */
export function accountImportRequest(event: APIGatewayProxyEventV2): AccountImportRequest {
  const type = event.headers['content-type'];
  if (!/^multipart\/form-data\s*;/i.test(type ?? '')) {
    throw new BadRequestError('the body must be multipart/form-data with the fields parameters and file');
  }
  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  const form = parseUploadForm(body, type);
  let json: unknown = {};
  if (form.fields.parameters?.trim()) {
    try {
      json = parseJsonText(form.fields.parameters);
    } catch {
      throw new InvalidJsonError('parameters is not JSON', 'parameters');
    }
  }
  const parsed = accountImportParameters.safeParse(json);
  if (!parsed.success) {
    throw new InvalidInputError(
      parsed.error.issues.map((issue) => ({
        Property: `parameters.${issue.path.join('.')}`,
        Problem: issue.message,
      })),
    );
  }
  return { parameters: parsed.data, encoding: importEncoding(parsed.data.Encoding), file: form.file?.bytes };
}
