import { type NodeServer, startNodeServer } from '../../scripts/launch-server.mjs';

/**
 * A real server process from the source (`server/main.ts` run with tsx), as the multi-process tests
 * start it: quiet logs, the simulator driver, a generous login limit; `env` adds to and overrides
 * these (the database, the administrator, the engine's pace).
 */
export function startSourceServer(
  name: string,
  env: Record<string, string | undefined>,
  opts: { stopTimeoutMs?: number } = {},
): Promise<NodeServer> {
  return startNodeServer({
    name,
    script: 'server/main.ts',
    nodeArgs: ['--import', 'tsx'],
    output: 'capture',
    stopTimeoutMs: opts.stopTimeoutMs,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '1000',
      WHATSAPP_DRIVER: 'simulator',
      ...env,
    },
  });
}

/**
 * Waits until the server answers its health route (true) or its process ends first (false);
 * throws, with what the server said, when it does neither within `ms`.
 */
export async function untilHealthy(s: NodeServer, ms = 90_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await fetch(`${s.url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return true;
    if (s.exitStatus()) return false;
    if (Date.now() > deadline) throw new Error(`${s.name} neither answered nor ended:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
