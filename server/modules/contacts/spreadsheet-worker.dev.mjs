// Starts the spreadsheet worker from its TypeScript source (tests and `npm run dev`). Node 20
// refuses a .ts file as a worker's entry even with `--import tsx` in execArgv, so this plain module
// registers tsx and then imports the source. Production runs dist/server/spreadsheet-worker.js.
import { register } from 'tsx/esm/api';

register();
await import('./spreadsheet-worker.ts');
