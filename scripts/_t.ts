import { PGlite } from '@electric-sql/pglite';
import { openPglite } from '../server/db/client';

const t0 = Date.now();
const c = await PGlite.create();
const d = openPglite(c);
await d.migrate();
const t1 = Date.now();
const blob = await c.dumpDataDir('none');
const t2 = Date.now();
const c2 = await PGlite.create({ loadDataDir: blob });
const r = await c2.query('select count(*) from users');
console.log('create+migrate', t1 - t0, 'dump', t2 - t1, 'load', Date.now() - t2, r.rows, blob.size);
