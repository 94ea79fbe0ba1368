// Bundles the server into dist/server/main.js; npm packages stay external and load from node_modules.
import { build } from 'esbuild';

// The spreadsheet worker is a second entry: main.js starts it as ./spreadsheet-worker.js, beside itself.
await build({
  entryPoints: { main: 'server/main.ts', 'spreadsheet-worker': 'server/modules/contacts/spreadsheet-worker.ts' },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
