// Preloaded into a Disparo server by the memory benchmarks (node --expose-gc --import this file):
// on SIGUSR2 it collects garbage and writes the process's memory figures, as JSON, to the file
// named by BENCH_MEMORY_PROBE_FILE. Nothing of the server changes; without the variable it does nothing.
// With BENCH_MEMORY_PROBE_SNAPSHOTS (a directory) each probe also writes a V8 heap snapshot there,
// to compare two of them in Chrome DevTools (Memory, Comparison).
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';

const file = process.env.BENCH_MEMORY_PROBE_FILE;
const snapshots = process.env.BENCH_MEMORY_PROBE_SNAPSHOTS;
let probes = 0;
if (file) {
  process.on('SIGUSR2', () => {
    globalThis.gc?.();
    globalThis.gc?.();
    const figures = { at: Date.now(), ...process.memoryUsage() };
    if (snapshots) writeHeapSnapshot(join(snapshots, `probe-${process.pid}-${++probes}.heapsnapshot`));
    // A full collection moves live objects to fresh pages and V8 gives the old ones back to the
    // system a moment later: `rss` read right after it overstates, `rssSettled` is read a second on.
    setTimeout(() => {
      const settled = { ...figures, rssSettled: process.memoryUsage.rss() };
      // Written aside then renamed: the benchmark never reads half a file.
      writeFileSync(`${file}.tmp`, JSON.stringify(settled));
      renameSync(`${file}.tmp`, file);
    }, 1_000);
  });
}
