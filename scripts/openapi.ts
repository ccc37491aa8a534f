import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../lib/openapi';

// Prints the OpenAPI 3.1 document that GET /api/openapi.json serves, for tools that want it as a file:
//   npm run --silent openapi > openapi.json    (--silent: npm prints no banner on stdout)
//   npm run openapi -- openapi.json            (writes the file itself)
const [file] = process.argv.slice(2);
const text = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
if (file) writeFileSync(file, text);
else process.stdout.write(text);
