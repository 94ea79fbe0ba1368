import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '../../contract/errors';
import { whatsappMsg } from '../../contract/whatsapp-connection';
import { BUS_HEADER_MAX_BYTES, BUS_PAYLOAD_MAX_BYTES, type ChangeBus } from '../cluster/bus';
import { AppError } from '../errors';
import { DriverError } from './driver';

/** A command for the process that holds a connection: what a request landing elsewhere asks of it. */
export interface ConnectionCommand {
  /** The number (`connections.id`). */
  connectionId: string;
  op: string;
  args: unknown[];
}

export const COMMAND_TOPIC = 'connection-command';
export const REPLY_TOPIC = 'connection-reply';
export const DEFAULT_COMMAND_TIMEOUT_MS = 15_000;
/** pt-BR: the holder of the connection did not answer in time. */
export const OWNER_UNREACHABLE =
  'O servidor que mantém a conexão do WhatsApp não respondeu. Tente novamente em instantes.';

/**
 * The largest command, as JSON: a send of the longest text a message may have (4,096 characters)
 * fits with room to spare; the image it names goes by id. A larger one is refused before it is sent.
 */
export const COMMAND_MAX_BYTES = 32 * 1024;
/** The largest answer, as JSON: the members of a full WhatsApp group (1,024) fit. */
export const REPLY_MAX_BYTES = 512 * 1024;
/**
 * Base64 characters per notification: with this message's header (two process ids, an id, the
 * part numbers) and the bus's own, within the bus's limit.
 */
const CHUNK = BUS_PAYLOAD_MAX_BYTES - 2 * BUS_HEADER_MAX_BYTES;
/** Parts of a message still missing after this long are dropped. */
const PARTIAL_TTL_MS = 60_000;

type SerializedError =
  | {
      type: 'driver';
      kind: DriverError['kind'];
      message: string;
      retryAfterMs?: number;
      providerCode?: string | number;
    }
  | { type: 'app'; code: ErrorCode; message: string; fieldErrors?: Record<string, string> }
  | { type: 'other'; message: string };

type Reply = { ok: true; result: unknown } | { ok: false; error: SerializedError };

/**
 * A command or answer refused before it reached the bus: it held bytes (an image's, a file's) or
 * was larger than its limit. The bus carries ids, never bytes: whoever needs the bytes reads them
 * from the database by id.
 */
export class RpcPayloadError extends Error {
  constructor(
    message: string,
    /** Refused for its size alone (a long answer: a number in thousands of groups), not for holding bytes. */
    readonly tooLarge = false,
  ) {
    super(`connection command refused: ${message}`);
    this.name = 'RpcPayloadError';
  }
}

/**
 * Binary data never crosses the bus. The replacer is handed a Buffer already turned into
 * `{ type: 'Buffer', data }`; the object holding it (`this`) still has the Buffer itself.
 */
function refuseBytes(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown>)[key];
  if (ArrayBuffer.isView(raw) || raw instanceof ArrayBuffer) throw new RpcPayloadError(`binary data at '${key}'`);
  return value;
}

function serializeError(err: unknown): SerializedError {
  if (err instanceof DriverError) {
    return {
      type: 'driver',
      kind: err.kind,
      message: err.message,
      retryAfterMs: err.retryAfterMs,
      providerCode: err.providerCode,
    };
  }
  if (err instanceof AppError)
    return { type: 'app', code: err.code, message: err.message, fieldErrors: err.fieldErrors };
  return { type: 'other', message: (err as Error)?.message ?? String(err) };
}

function rebuildError(e: SerializedError): Error {
  if (e.type === 'driver') return new DriverError(e.kind, e.message, e.retryAfterMs, e.providerCode);
  if (e.type === 'app') return new AppError(e.code, e.message, e.fieldErrors);
  return new Error(e.message);
}

/**
 * Commands between processes over the change bus: a request that lands on a process which does not
 * hold the connection runs on the one that does. A message is `to, id, part, parts, base64`, each on
 * a line of its own (the bus cuts its payload at tabs), the JSON cut into parts below the
 * notification size limit; every process hears it, only `to` acts.
 * A command unanswered within the timeout fails with a 503 (`UNAVAILABLE`).
 *
 * Commands and answers carry ids and short texts, never bytes: one holding binary data, or larger
 * than `COMMAND_MAX_BYTES` (`REPLY_MAX_BYTES` for an answer), is refused before anything is sent,
 * reported to `onRefused`, and the call fails with an `RpcPayloadError` (an image goes by its upload's
 * id, and the holder reads it: uploaded-image.ts).
 */
export class ConnectionRpc {
  private readonly pending = new Map<
    string,
    { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();
  private readonly partials = new Map<string, { parts: string[]; got: number; at: number }>();
  private readonly unsubscribe: Array<() => void>;

  constructor(
    private readonly bus: ChangeBus,
    private readonly selfId: string,
    private readonly run: (command: ConnectionCommand) => Promise<unknown>,
    private readonly timeoutMs = DEFAULT_COMMAND_TIMEOUT_MS,
    /** A command or answer was refused for what it held (logged by the caller). */
    private readonly onRefused: (err: RpcPayloadError, detail: { op?: string; connectionId?: string }) => void = () =>
      undefined,
  ) {
    this.unsubscribe = [
      bus.subscribe(COMMAND_TOPIC, (key) => this.heard(key, (id, body) => this.serve(id, body))),
      bus.subscribe(REPLY_TOPIC, (key) => this.heard(key, (id, body) => this.answered(id, body))),
    ];
  }

  /** Runs `op` on the process `to`; answers its result or throws its error. */
  call(to: string, command: ConnectionCommand): Promise<unknown> {
    const id = randomUUID();
    let data: string;
    try {
      data = this.encode({ from: this.selfId, ...command }, COMMAND_MAX_BYTES);
    } catch (err) {
      if (err instanceof RpcPayloadError) this.onRefused(err, { op: command.op, connectionId: command.connectionId });
      return Promise.reject(err);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new AppError('UNAVAILABLE', OWNER_UNREACHABLE));
      }, this.timeoutMs);
      timer.unref?.();
      this.pending.set(id, { resolve, reject, timer });
      try {
        this.send(COMMAND_TOPIC, to, id, data);
      } catch (err) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(err);
      }
    });
  }

  /** Rejects what is still waiting (the process is closing). */
  close(): void {
    for (const off of this.unsubscribe) off();
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new AppError('UNAVAILABLE', OWNER_UNREACHABLE));
      this.pending.delete(id);
    }
  }

  /** The message as base64 JSON; throws an `RpcPayloadError` for bytes, or for JSON over `maxBytes`. */
  private encode(body: unknown, maxBytes: number): string {
    const json = Buffer.from(JSON.stringify(body, refuseBytes) ?? 'null');
    if (json.length > maxBytes) throw new RpcPayloadError(`${json.length} bytes (at most ${maxBytes})`, true);
    return json.toString('base64');
  }

  private send(topic: string, to: string, id: string, data: string): void {
    const parts = Math.max(1, Math.ceil(data.length / CHUNK));
    for (let i = 0; i < parts; i++) {
      this.bus.publish(topic, `${to}\n${id}\n${i}\n${parts}\n${data.slice(i * CHUNK, (i + 1) * CHUNK)}`);
    }
  }

  private heard(key: string, then: (id: string, body: unknown) => void): void {
    const [to, id, partText, partsText, data] = key.split('\n');
    if (to !== this.selfId || !id || data === undefined) return;
    const part = Number(partText);
    const parts = Number(partsText);
    if (!Number.isInteger(part) || !Number.isInteger(parts) || parts < 1 || part < 0 || part >= parts) return;
    let whole = data;
    if (parts > 1) {
      const now = Date.now();
      for (const [k, p] of this.partials) if (now - p.at > PARTIAL_TTL_MS) this.partials.delete(k);
      let p = this.partials.get(id);
      if (!p) {
        p = { parts: new Array(parts).fill(''), got: 0, at: now };
        this.partials.set(id, p);
      }
      if (!p.parts[part]) p.got++;
      p.parts[part] = data;
      if (p.got < parts) return;
      this.partials.delete(id);
      whole = p.parts.join('');
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.from(whole, 'base64').toString('utf8'));
    } catch {
      return;
    }
    then(id, body);
  }

  private serve(id: string, body: unknown): void {
    const { from, connectionId, op, args } = body as ConnectionCommand & { from: string };
    if (typeof from !== 'string' || typeof connectionId !== 'string' || typeof op !== 'string') return;
    void this.run({ connectionId, op, args: Array.isArray(args) ? args : [] }).then(
      (result) => this.reply(from, id, { ok: true, result: result ?? null }, { op, connectionId }),
      (err) => this.reply(from, id, { ok: false, error: serializeError(err) }, { op, connectionId }),
    );
  }

  /** Answers a command; an answer that may not cross the bus is replaced by the error saying so. */
  private reply(to: string, id: string, reply: Reply, detail: { op: string; connectionId: string }): void {
    let data: string;
    try {
      data = this.encode(reply, REPLY_MAX_BYTES);
    } catch (err) {
      if (!(err instanceof RpcPayloadError)) throw err;
      this.onRefused(err, detail);
      // Too long an answer is the data's doing, not a fault: the caller gets a pt-BR refusal (409).
      const error = err.tooLarge ? new AppError('CONFLICT', whatsappMsg.answerTooLarge) : err;
      data = this.encode({ ok: false, error: serializeError(error) } satisfies Reply, REPLY_MAX_BYTES);
    }
    try {
      this.send(REPLY_TOPIC, to, id, data);
    } catch {
      // The bus refused and reported it; the caller's wait ends at its timeout.
    }
  }

  private answered(id: string, body: unknown): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    const reply = body as Reply;
    if (reply.ok) p.resolve(reply.result);
    else p.reject(rebuildError(reply.error));
  }
}
