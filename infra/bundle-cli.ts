import { bundle } from './bundling';

/**
 * `node --import tsx infra/bundle-cli.ts <entry> <outdir> [name=source …]`: one handler bundled as
 * infra/bundling.ts says, each `name=source` copied into `outdir`. ApiFunction runs it in a child process
 * because CDK's local bundling is synchronous and esbuild's plugins need the asynchronous API.
 */

const [entry, outdir, ...files] = process.argv.slice(2);
if (entry === undefined || outdir === undefined) {
  console.error('usage: bundle-cli.ts <entry> <outdir> [name=source …]');
  process.exit(2);
}
const extraFiles = Object.fromEntries(
  files.map((file) => {
    const at = file.indexOf('=');
    if (at <= 0) throw new Error(`expected name=source, got ${file}`);
    return [file.slice(0, at), file.slice(at + 1)];
  }),
);
try {
  await bundle({ entry, outdir, extraFiles });
} catch (error) {
  // esbuild has printed its diagnostics already; the message is enough for a copy that failed.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
