import { openApiDocument } from '../lib/openapi';

// Prints the OpenAPI 3.1 document that GET /api/openapi.json serves, for tools that want it as a file:
// npm run openapi > openapi.json
process.stdout.write(`${JSON.stringify(openApiDocument(), null, 2)}\n`);
