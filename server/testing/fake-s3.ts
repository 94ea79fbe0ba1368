import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/*
 * A small S3 for tests, on 127.0.0.1 and a random port: path-style requests for one bucket, the
 * calls the SDK's Upload helper and our store make (PutObject, GetObject, HeadObject, DeleteObject,
 * CreateMultipartUpload, UploadPart, CompleteMultipartUpload, AbortMultipartUpload). Objects and
 * parts are files in a temp directory, so a file of many megabytes costs the test process nothing.
 * Signatures are not verified; the access key id in the Authorization header is.
 *
 * Written here rather than taken from npm: `s3rver` has a published advisory (GHSA-wm7h-9275-46v2)
 * and its maintained fork requires Node 24 or later, while the server runs on Node 20.
 */

export interface FakeS3 {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The keys of the objects in the bucket. */
  objects(): Promise<string[]>;
  /** Multipart uploads begun and neither completed nor aborted. */
  unfinishedUploads(): number;
  /** What arrived: parts uploaded (over all uploads), single PutObjects, request body bytes. */
  counts: { parts: number; puts: number; bytesIn: number };
  close(): Promise<void>;
}

interface Upload {
  key: string;
  dir: string;
}

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startFakeS3(
  opts: { bucket?: string; accessKeyId?: string; secretAccessKey?: string } = {},
): Promise<FakeS3> {
  const bucket = opts.bucket ?? 'disparo-test';
  const accessKeyId = opts.accessKeyId ?? 'FAKEACCESSKEY';
  const root = mkdtempSync(join(tmpdir(), 'disparo-fake-s3-'));
  const objectsDir = join(root, 'objects');
  const uploadsDir = join(root, 'uploads');
  await mkdir(objectsDir, { recursive: true });
  await mkdir(uploadsDir, { recursive: true });
  const uploads = new Map<string, Upload>();
  const counts = { parts: 0, puts: 0, bytesIn: 0 };
  const objectPath = (key: string) => join(objectsDir, encodeURIComponent(key));

  function fail(res: ServerResponse, status: number, code: string, message: string) {
    res.writeHead(status, { 'content-type': 'application/xml' });
    res.end(xml(`<Error><Code>${code}</Code><Message>${esc(message)}</Message></Error>`));
  }

  /** The request body into `path`, written aside and renamed, counted as it arrives. */
  async function receive(req: IncomingMessage, path: string): Promise<number> {
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      counts.bytesIn += chunk.length;
    });
    const temp = `${path}.${randomUUID()}.tmp`;
    try {
      await pipeline(req, createWriteStream(temp));
      await rename(temp, path);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    return size;
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const parts: Buffer[] = [];
    for await (const chunk of req) parts.push(chunk as Buffer);
    return Buffer.concat(parts).toString('utf8');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const credential = /Credential=([^/,\s]+)\//.exec(req.headers.authorization ?? '')?.[1];
    if (credential !== accessKeyId) {
      return fail(res, 403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
    }
    if (/aws-chunked/.test(String(req.headers['content-encoding'] ?? ''))) {
      return fail(res, 501, 'NotImplemented', 'aws-chunked bodies are not supported here');
    }
    const [, bucketName, ...rest] = url.pathname.split('/');
    const key = rest.map(decodeURIComponent).join('/');
    if (bucketName !== bucket) return fail(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    if (!key) return fail(res, 400, 'NotImplemented', 'bucket operations are not supported here');
    const q = url.searchParams;
    const uploadId = q.get('uploadId');

    if (req.method === 'POST' && q.has('uploads')) {
      const id = randomUUID();
      const dir = join(uploadsDir, id);
      await mkdir(dir);
      uploads.set(id, { key, dir });
      res.writeHead(200, { 'content-type': 'application/xml' });
      return void res.end(
        xml(
          `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${esc(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
        ),
      );
    }
    if (uploadId !== null) {
      const upload = uploads.get(uploadId);
      if (!upload || upload.key !== key) return fail(res, 404, 'NoSuchUpload', 'The specified upload does not exist.');
      if (req.method === 'PUT') {
        const n = Number(q.get('partNumber'));
        if (!Number.isInteger(n) || n < 1 || n > 10_000) return fail(res, 400, 'InvalidArgument', 'bad part number');
        await receive(req, join(upload.dir, String(n).padStart(5, '0')));
        counts.parts++;
        res.writeHead(200, { etag: `"part-${n}"` });
        return void res.end();
      }
      if (req.method === 'POST') {
        const listed = [...(await readBody(req)).matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
        const have = (await readdir(upload.dir)).filter((f) => /^\d{5}$/.test(f)).map(Number);
        if (!listed.length || listed.some((n) => !have.includes(n))) {
          return fail(res, 400, 'InvalidPart', 'One or more of the specified parts could not be found.');
        }
        const temp = `${objectPath(key)}.${randomUUID()}.tmp`;
        const out = createWriteStream(temp);
        for (const n of listed.sort((a, b) => a - b)) {
          await pipeline(createReadStream(join(upload.dir, String(n).padStart(5, '0'))), out, { end: false });
        }
        out.end();
        await new Promise<void>((resolve, reject) => out.on('finish', resolve).on('error', reject));
        await rename(temp, objectPath(key));
        uploads.delete(uploadId);
        await rm(upload.dir, { recursive: true, force: true });
        res.writeHead(200, { 'content-type': 'application/xml' });
        return void res.end(
          xml(
            `<CompleteMultipartUploadResult><Location>/${bucket}/${esc(key)}</Location><Bucket>${bucket}</Bucket><Key>${esc(key)}</Key><ETag>"multipart-${uploadId}"</ETag></CompleteMultipartUploadResult>`,
          ),
        );
      }
      if (req.method === 'DELETE') {
        uploads.delete(uploadId);
        await rm(upload.dir, { recursive: true, force: true });
        res.writeHead(204);
        return void res.end();
      }
    }
    if (req.method === 'PUT') {
      await receive(req, objectPath(key));
      counts.puts++;
      res.writeHead(200, { etag: `"put-${randomUUID()}"` });
      return void res.end();
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const size = await stat(objectPath(key)).then(
        (s) => s.size,
        () => null,
      );
      if (size === null) {
        if (req.method === 'HEAD') {
          res.writeHead(404);
          return void res.end();
        }
        return fail(res, 404, 'NoSuchKey', 'The specified key does not exist.');
      }
      res.writeHead(200, {
        'content-length': String(size),
        'content-type': 'application/octet-stream',
        etag: '"object"',
      });
      if (req.method === 'HEAD') return void res.end();
      return pipeline(createReadStream(objectPath(key)), res);
    }
    if (req.method === 'DELETE') {
      await rm(objectPath(key), { force: true });
      res.writeHead(204);
      return void res.end();
    }
    return fail(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) fail(res, 500, 'InternalError', String(err));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId,
    secretAccessKey: opts.secretAccessKey ?? 'fake-secret-access-key',
    counts,
    async objects() {
      const files = await readdir(objectsDir);
      return files.filter((f) => !f.endsWith('.tmp')).map(decodeURIComponent);
    },
    unfinishedUploads: () => uploads.size,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
