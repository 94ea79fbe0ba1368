import { readdirSync, readFileSync } from 'node:fs';

/** The committed migrations, for tests that run some of them on rows written the old way. */
const folder = new URL('../db/migrations/', import.meta.url);

/** Every migration's file name, in the order they run. */
export const migrationFiles = readdirSync(folder)
  .filter((f) => /^\d{4}_.*\.sql$/.test(f))
  .sort();

/** One migration's statements, as the migrator runs them one by one. */
export const migrationStatements = (file: string) =>
  readFileSync(new URL(file, folder), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);
