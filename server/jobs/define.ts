import type { z } from 'zod';
import type { Db } from '../db/client';

/** What a handler is given besides its payload. */
export interface JobContext {
  db: Db;
  jobId: string;
  /** This run's number, from 1. */
  attempt: number;
  /**
   * Aborted when this process stops: a handler that can stop midway throws (anything) once it is
   * aborted, and the job goes back to the queue without counting the run as an attempt.
   */
  signal: AbortSignal;
  /** Whether the job was cancelled (or taken by another process) since this run began. */
  cancelled: () => Promise<boolean>;
  /** The run had nothing to do: its row is deleted rather than kept `done`. */
  discard: () => void;
  /**
   * Enqueues a job in the transaction that finishes this run, once its row is done (or deleted):
   * the next link of a chain, written only if this run counts, and free to take this job's dedupe key.
   */
  followUp: <T>(definition: JobDefinition<T>, payload: T, opts?: FollowUpOptions) => void;
}

/** Where and when a follow-up job goes (`EnqueueOptions` less a fixed `runAt`). */
export interface FollowUpOptions {
  delayMs?: number;
  dedupeKey?: string;
  accountId?: string;
}

/** A failure no retry can mend (a payload that no longer parses): the job is dead at once. */
export class PermanentJobError extends Error {}

/** Milliseconds to wait before the next run, after `attempt` runs failed. */
export type Backoff = (attempt: number) => number;

export interface JobDefinition<T = unknown> {
  readonly name: string;
  readonly payload: z.ZodType<T>;
  readonly handler: (payload: T, ctx: JobContext) => Promise<void>;
  readonly maxAttempts: number;
  readonly backoff: Backoff;
  /** A recurring chore: after each run (done or dead) the next is enqueued this much later. */
  readonly every?: number;
}

/** Any definition, whatever its payload (a runner holds several kinds). */
// biome-ignore lint/suspicious/noExplicitAny: the payload's type is each definition's own
export type AnyJobDefinition = JobDefinition<any>;

export interface DefineJobOptions<T> {
  name: string;
  payload: z.ZodType<T>;
  handler: (payload: T, ctx: JobContext) => Promise<void>;
  /** Runs before the job is dead (default 5). */
  maxAttempts?: number;
  /** Default: exponential from 5 s, at most an hour, with jitter. */
  backoff?: Backoff | { baseMs: number; maxMs: number };
  every?: number;
}

/**
 * Exponential backoff with jitter: base·2^(attempt−1), capped, then drawn in its upper half so
 * jobs that failed together (a provider down) do not come back together.
 */
export function exponentialBackoff(baseMs: number, maxMs: number, random: () => number = Math.random): Backoff {
  return (attempt) => {
    const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
  };
}

export const DEFAULT_MAX_ATTEMPTS = 5;
const DEFAULT_BACKOFF = exponentialBackoff(5_000, 3_600_000);

/** A kind of job: its name (unique in the app), its payload's schema and what runs it. */
export function defineJob<T>(opts: DefineJobOptions<T>): JobDefinition<T> {
  const maxAttempts = opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error(`job ${opts.name}: maxAttempts below 1`);
  const backoff =
    typeof opts.backoff === 'function'
      ? opts.backoff
      : opts.backoff
        ? exponentialBackoff(opts.backoff.baseMs, opts.backoff.maxMs)
        : DEFAULT_BACKOFF;
  return { name: opts.name, payload: opts.payload, handler: opts.handler, maxAttempts, backoff, every: opts.every };
}
