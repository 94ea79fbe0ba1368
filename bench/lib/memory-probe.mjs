// Preloaded into a Disparo server by the memory benchmark (node --expose-gc --import this file):
// on SIGUSR2 it collects garbage and writes the process's memory figures, as JSON, to the file
// named by BENCH_MEMORY_PROBE_FILE. Nothing of the server changes; without the variable it does nothing.
import { renameSync, writeFileSync } from 'node:fs';

const file = process.env.BENCH_MEMORY_PROBE_FILE;
if (file) {
  process.on('SIGUSR2', () => {
    globalThis.gc?.();
    globalThis.gc?.();
    // Written aside then renamed: the benchmark never reads half a file.
    writeFileSync(`${file}.tmp`, JSON.stringify({ at: Date.now(), ...process.memoryUsage() }));
    renameSync(`${file}.tmp`, file);
  });
}
