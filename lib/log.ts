import { Logger } from '@aws-lambda-powertools/logger';

/** One structured JSON logger; the stack appends the request id to every line of a request. */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'kiroku' });
