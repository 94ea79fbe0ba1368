// Types of launch-server.mjs, for the TypeScript that imports it (bench/lib/server.ts).
import type { ChildProcess } from 'node:child_process';

/** The repository root. */
export const repoRoot: string;
/** The built server, dist/server/main.js. */
export const serverBundle: string;

/** A port that was free a moment ago on `host` (127.0.0.1 unless given). */
export function freePort(host?: string): Promise<number>;

export interface FreshDatabase {
  name: string;
  /** The server URL with the new database as its path. */
  url: string;
  /** Drops the database, closing its connections (`with (force)`). */
  drop(): Promise<void>;
}

/** Creates a database named `<prefix>_<random>` on the PostgreSQL server at `serverUrl`. */
export function createDatabase(serverUrl: string, prefix: string): Promise<FreshDatabase>;

export interface NodeServerOptions {
  /** For messages. */
  name: string;
  script: string;
  /** The whole environment of the child (nothing is inherited); PORT and HOST are added. */
  env: Record<string, string | undefined>;
  /** 127.0.0.1 unless given. */
  host?: string;
  /** A free port unless given. */
  port?: number;
  nodeArgs?: string[];
  /** 'inherit' (the default) shares this process's stdout and stderr; 'capture' keeps their last lines for output(). */
  output?: 'inherit' | 'capture';
  /** How long stop() waits after SIGTERM before SIGKILL (5 s unless given). */
  stopTimeoutMs?: number;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface NodeServer {
  name: string;
  /** http://HOST:PORT, no trailing slash. */
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** The last lines the child wrote, with output: 'capture'; '' otherwise. */
  output(): string;
  /** How the child ended, or undefined while it runs. */
  exitStatus(): ExitStatus | undefined;
  /** Resolves when the child ends, whoever stops it. */
  exited: Promise<ExitStatus>;
  /** SIGTERM, then SIGKILL after the grace period; resolves once the child is gone. Idempotent. */
  stop(): Promise<void>;
}

/** Starts a Node script that serves HTTP on HOST:PORT; does not wait for it to answer. */
export function startNodeServer(opts: NodeServerOptions): Promise<NodeServer>;

export interface DisparoOptions extends Omit<NodeServerOptions, 'script'> {
  /** dist/server/main.js unless given. */
  bundle?: string;
  /** Prefix of the temporary data directory (DATA_DIR). */
  dataDirPrefix: string;
  /** A fresh database on this PostgreSQL server (DATABASE_URL), dropped on stop. */
  postgres?: { serverUrl: string; prefix: string };
}

export interface DisparoProcess extends NodeServer {
  dataDir: string;
  /** The fresh database's URL, with `postgres`. */
  databaseUrl: string | undefined;
  /** Stops the child (as NodeServer.stop), then removes the data directory and drops the database. Idempotent. */
  stop(): Promise<void>;
}

/** The built server with a fresh data directory and, with `postgres`, a fresh database. */
export function launchDisparo(opts: DisparoOptions): Promise<DisparoProcess>;
