import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakePhoneNumber {
  token: string;
  display_phone_number: string;
  verified_name: string;
  quality_rating: string;
  code_verification_status: string;
  status: string;
  about?: string;
  profile_picture_url?: string;
  businessAccountId?: string;
  whatsapp_business_manager_messaging_limit?: string;
}

/**
 * What a send to the messages edge meets instead of its normal answer (fault injection):
 * - `status`: an error answer with this HTTP status, an optional Graph error code and Retry-After header;
 * - `hang`: no answer ever, and nothing sent (the client's timeout ends the request);
 * - `reset`: the connection is destroyed before the send is processed, so nothing is sent;
 * - `lose-answer`: the message is sent, then the connection is destroyed before the answer;
 * - `late-answer`: the message is sent, and its answer waits until `until` settles.
 */
export type GraphFault =
  | { kind: 'status'; status: number; code?: number; message?: string; retryAfter?: string }
  | { kind: 'hang' }
  | { kind: 'reset' }
  | { kind: 'lose-answer' }
  | { kind: 'late-answer'; until: Promise<void> };

/** One send as the fault chooser sees it; `attempt` counts the sends to `to`, this one included. */
export interface FakeSend {
  phoneNumberId: string;
  to: string;
  attempt: number;
}

type Answer =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { status: number; raw: Buffer; headers: Record<string, string> }
  | { drop: true }
  | { hang: true };

/** A file a contact sent, as the media edge knows it (see addMedia). */
export interface FakeInboundMedia {
  bytes: Buffer;
  mimeType: string;
  /** Only this token reads it; when absent, any known phone number's token does. */
  token?: string;
  /** What the lookup announces as `file_size` (a test makes it lie); the true size otherwise. */
  fileSize?: number;
  /** What the lookup announces as `url` (a test points it elsewhere); the fake's own otherwise. */
  url?: string;
  /** The download URL's unguessable part, as Meta's `hash`. */
  hash: string;
}

export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization?: string;
  json?: Record<string, unknown>;
  contentType?: string;
  rawBody: Buffer;
  /** When it arrived (ms, performance clock). */
  at: number;
}

/**
 * A local stand-in for the Graph API that follows the public request and answer shapes of the
 * WhatsApp Cloud API: phone number lookup, business profile, messages, media upload and message
 * templates, with Graph-style errors (`{ error: { message, type, code, fbtrace_id } }`).
 */
export class FakeGraphApi {
  readonly phones = new Map<string, FakePhoneNumber>();

  /** A verified, connected phone number with a green rating, answered for `token`; `more` fills in the rest. */
  addPhone(
    phoneNumberId: string,
    token: string,
    displayPhoneNumber: string,
    name = 'Loja',
    more: Pick<FakePhoneNumber, 'about' | 'profile_picture_url' | 'businessAccountId'> = {},
  ): void {
    this.phones.set(phoneNumberId, {
      token,
      display_phone_number: displayPhoneNumber,
      verified_name: name,
      quality_rating: 'GREEN',
      code_verification_status: 'VERIFIED',
      status: 'CONNECTED',
      ...more,
    });
  }

  readonly templates = new Map<
    string,
    Array<{
      name: string;
      language: string;
      status: string;
      category: string;
      components?: Array<{ type: string; text?: string }>;
    }>
  >();
  readonly requests: FakeRequest[] = [];
  readonly sent: Array<Record<string, unknown>> = [];
  /** When each of `sent` arrived (ms, performance clock). */
  readonly sentTimes: number[] = [];
  /** The message id (wamid) each of `sent` got. */
  readonly sentIds: string[] = [];
  readonly media: Array<{ phoneNumberId: string; bytes: number; type: string | null }> = [];
  /** Files contacts sent, by media id: what `GET /{media-id}` and its download URL answer. */
  readonly inboundMedia = new Map<string, FakeInboundMedia>();

  /**
   * A file a contact sent, as a webhook's media id: `GET /{version}/{id}` answers Meta's
   * `{ url, mime_type, sha256, file_size, id, messaging_product }`, and the url gives the bytes, both
   * with the bearer token. Answers the id.
   */
  addMedia(bytes: Buffer, mimeType: string, more: Pick<FakeInboundMedia, 'token' | 'fileSize' | 'url'> = {}): string {
    // Meta's media ids are long decimal numbers.
    const id = String(1_000_000_000_000_000 + ++this.seq);
    this.inboundMedia.set(id, { bytes, mimeType, ...more, hash: randomBytes(8).toString('hex') });
    return id;
  }

  private mediaReader(media: FakeInboundMedia, token: string | undefined): boolean {
    if (!token) return false;
    return media.token ? media.token === token : [...this.phones.values()].some((p) => p.token === token);
  }
  /** Error code a send to this recipient answers with (130429, 131047, 131026…). */
  readonly recipientErrors = new Map<string, number>();
  /** How long each send waits before answering (the real Graph API takes 100–300 ms). */
  latencyMs = 0;
  /** While set, each send waits for it before answering (a test holds sends to see what happens meanwhile). */
  hold: Promise<void> | null = null;
  /** Keep every request (tests read them); a long benchmark turns this off. */
  keepRequests = true;
  /** Chooses the fault each send meets, or null for a normal answer (see GraphFault). */
  sendFault: ((send: FakeSend) => GraphFault | null) | null = null;
  /** Every fault a send met, in order. */
  readonly faults: Array<FakeSend & { kind: GraphFault['kind'] }> = [];
  /** Sends that reached the messages edge per recipient, faulted or not. */
  readonly attempts = new Map<string, number>();
  private seq = 0;
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      // A public file for the tests' image URLs (what a private upload would be fetched from).
      if (req.url?.startsWith('/files/')) {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.from('89504e470d0a1a0a', 'hex'));
        return;
      }
      void this.handle(req).then(
        (answer) => {
          if ('hang' in answer) return;
          if ('drop' in answer) {
            req.socket.destroy();
            return;
          }
          if ('raw' in answer) {
            res.writeHead(answer.status, answer.headers);
            res.end(answer.raw);
            return;
          }
          res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
          res.end(JSON.stringify(answer.body));
        },
        (err) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: String(err), code: 1 } }));
        },
      );
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server?.close(() => resolve());
      // A request left hanging by a fault would otherwise keep the server open.
      this.server?.closeAllConnections();
    });
  }

  private error(status: number, code: number | undefined, message: string, type = 'OAuthException') {
    return { status, body: { error: { message, type, code, fbtrace_id: `trace${++this.seq}` } } };
  }

  private async handle(req: IncomingMessage): Promise<Answer> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rawBody = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://fake');
    const contentType = req.headers['content-type'];
    const json = contentType?.startsWith('application/json') ? JSON.parse(rawBody.toString('utf8') || '{}') : undefined;
    const record: FakeRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
      json,
      contentType,
      rawBody,
      at: performance.now(),
    };
    if (this.keepRequests) this.requests.push(record);

    const parts = url.pathname.split('/').filter(Boolean); // [version, id, edge?]
    const bearer = req.headers.authorization?.replace(/^Bearer /, '');

    // A received file's bytes, where the media lookup's `url` points (Meta's lookaside host).
    if (parts[0] === 'media-bytes' && record.method === 'GET') {
      const media = this.inboundMedia.get(parts[1] ?? '');
      if (!media || media.hash !== record.query.hash) return this.error(404, 100, 'Media not found');
      if (!this.mediaReader(media, bearer)) return this.error(401, 190, 'Invalid OAuth access token');
      return { status: 200, raw: media.bytes, headers: { 'content-type': media.mimeType } };
    }

    if (!/^v\d+\.\d+$/.test(parts[0] ?? '')) return this.error(400, 2500, 'Unknown path components', 'OAuthException');
    const [, id, edge] = parts;
    const token = req.headers.authorization?.replace(/^Bearer /, '');

    // Templates live under the business account id.
    if (edge === 'message_templates') {
      const owner = [...this.phones.values()].find((p) => p.businessAccountId === id);
      if (!owner || owner.token !== token)
        return this.error(401, 190, 'Invalid OAuth access token - Cannot parse access token');
      return {
        status: 200,
        body: { data: this.templates.get(id) ?? [], paging: { cursors: { before: 'a', after: 'b' } } },
      };
    }

    const media = this.inboundMedia.get(id ?? '');
    if (media && !edge && record.method === 'GET') {
      if (!this.mediaReader(media, bearer)) return this.error(401, 190, 'Invalid OAuth access token');
      return {
        status: 200,
        body: {
          messaging_product: 'whatsapp',
          url: media.url ?? `${this.url}/media-bytes/${id}?hash=${media.hash}`,
          mime_type: media.mimeType,
          sha256: createHash('sha256').update(media.bytes).digest('hex'),
          file_size: media.fileSize ?? media.bytes.length,
          id,
        },
      };
    }

    const phone = this.phones.get(id ?? '');
    // A lookup without fields is a media id's (the phone number's own always asks for fields).
    if (!phone && !edge && record.method === 'GET' && !record.query.fields) {
      return this.error(404, 100, `Unsupported get request. Object with ID '${id}' does not exist`);
    }
    if (!phone) {
      return this.error(
        400,
        100,
        `Unsupported get request. Object with ID '${id}' does not exist`,
        'GraphMethodException',
      );
    }
    if (phone.token !== token) return this.error(401, 190, 'Invalid OAuth access token - Cannot parse access token');

    if (!edge && record.method === 'GET') {
      const fields = (record.query.fields ?? 'display_phone_number,verified_name').split(',');
      const all: Record<string, unknown> = { ...phone, id };
      return {
        status: 200,
        body: Object.fromEntries([...fields, 'id'].filter((f) => f in all).map((f) => [f, all[f]])),
      };
    }
    if (edge === 'whatsapp_business_profile' && record.method === 'GET') {
      return {
        status: 200,
        body: {
          data: [
            { about: phone.about ?? '', profile_picture_url: phone.profile_picture_url, messaging_product: 'whatsapp' },
          ],
        },
      };
    }
    if (edge === 'media' && record.method === 'POST') {
      if (!contentType?.startsWith('multipart/form-data')) return this.error(400, 100, 'Param file must be a file');
      const body = rawBody.toString('latin1');
      if (!/name="messaging_product"\r\n\r\nwhatsapp/.test(body) || !/name="file"/.test(body)) {
        return this.error(400, 100, 'The parameter messaging_product is required.');
      }
      const type = /name="type"\r\n\r\n([^\r]+)/.exec(body)?.[1] ?? null;
      this.media.push({ phoneNumberId: id, bytes: rawBody.length, type });
      return { status: 200, body: { id: `media-${++this.seq}` } };
    }
    if (edge === 'messages' && record.method === 'POST') {
      const m = json as Record<string, unknown> | undefined;
      if (m?.messaging_product !== 'whatsapp' || typeof m.to !== 'string' || typeof m.type !== 'string') {
        return this.error(400, 100, 'Invalid parameter');
      }
      const attempt = (this.attempts.get(m.to) ?? 0) + 1;
      this.attempts.set(m.to, attempt);
      const send: FakeSend = { phoneNumberId: id, to: m.to, attempt };
      const fault = this.sendFault?.(send) ?? null;
      if (fault) this.faults.push({ ...send, kind: fault.kind });
      if (fault?.kind === 'status') {
        const answer = this.error(fault.status, fault.code, fault.message ?? `Error ${fault.code ?? fault.status}`);
        return fault.retryAfter === undefined ? answer : { ...answer, headers: { 'retry-after': fault.retryAfter } };
      }
      if (fault?.kind === 'hang') return { hang: true };
      if (fault?.kind === 'reset') return { drop: true };
      const code = this.recipientErrors.get(m.to);
      if (code !== undefined) return this.error(code === 190 ? 401 : 400, code, `Error ${code}`, 'OAuthException');
      if (this.latencyMs) await new Promise((r) => setTimeout(r, this.latencyMs));
      if (this.hold) await this.hold;
      const wamid = `wamid.HBgN${m.to}${String(++this.seq).padStart(6, '0')}`;
      this.sent.push(m);
      this.sentTimes.push(performance.now());
      this.sentIds.push(wamid);
      if (fault?.kind === 'lose-answer') return { drop: true };
      if (fault?.kind === 'late-answer') await fault.until.catch(() => undefined);
      return {
        status: 200,
        body: { messaging_product: 'whatsapp', contacts: [{ input: m.to, wa_id: m.to }], messages: [{ id: wamid }] },
      };
    }
    return this.error(400, 100, 'Unsupported request');
  }
}
