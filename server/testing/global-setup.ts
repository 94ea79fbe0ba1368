import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
    pgTemplate: string;
  }
}

function adminUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * Migrates one database per run: a PGlite data directory dumped to a file that every test file
 * loads (initdb costs seconds), or, on PostgreSQL, a template database every test file clones.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'disparo-test-'));
  const cleanups: Array<() => Promise<void>> = [async () => rmSync(dir, { recursive: true, force: true })];

  if (process.env.TEST_DB === 'postgres' || project.config.env?.TEST_DB === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is required for the postgres test project');
    const template = `disparo_tpl_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${template}`);
    const db = openPostgres(adminUrl(url, template), 2);
    await db.migrate();
    await db.close();
    project.provide('pgTemplate', template);
    project.provide('pgliteDump', '');
    cleanups.push(async () => {
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    });
  } else {
    const client = await PGlite.create();
    await openPglite(client).migrate();
    const dump = await client.dumpDataDir('none');
    const file = join(dir, 'migrated.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await client.close();
    project.provide('pgliteDump', file);
    project.provide('pgTemplate', '');
  }

  return async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
}
