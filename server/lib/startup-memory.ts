import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * One full garbage collection, once, when start-up is done. Start-up (migrations, every route's
 * schemas compiled, the administrator's password hashed) leaves tens of MB that V8 keeps, with the
 * young generation grown to hold them, until its next full collection — which an idle server may not
 * reach for minutes. Collecting once gives it back: on PostgreSQL an idle server rests about 25 MB
 * lower from its first seconds (bench/memory.bench.ts). The pause is a few tens of milliseconds,
 * before any traffic. `--expose-gc` is switched on only to take the function, then off again.
 */
export function collectStartupGarbage(): void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') {
    exposed();
    return;
  }
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  gc();
}
