// Starts the spreadsheet worker from its TypeScript source (tests and `npm run dev`); production
// runs the bundled dist/server/spreadsheet-worker.js instead.
import { register } from 'tsx/esm/api';

register();
await import('./spreadsheet-worker.ts');
