import http from 'node:http';
import * as XLSX from '@e965/xlsx';
import { createApprovedCustomers, login } from './accounts';
import { expectStatus, request } from './http';
import type { DisparoServer } from './server';

const FIRST = ['Ana', 'João', 'Maria', 'José', 'Antônio', 'Francisca', 'Luíza', 'Carlos', 'Paulo', 'Conceição'];
const LAST = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Lima', 'Pereira', 'Ferreira', 'Araújo', 'Gonçalves', 'Melo'];
const DDD = ['11', '21', '31', '41', '51', '61', '71', '81', '85', '91'];

/** `count` realistic rows (header first): accented names, phones written the ways people write them. */
export function contactRows(count: number, offset = 0): string[][] {
  const rows: string[][] = [['Nome', 'Telefone', 'Email', 'Tags']];
  for (let i = 0; i < count; i++) {
    const n = i + offset;
    const ddd = DDD[n % DDD.length];
    const number = String(10_000_000 + ((n * 7919) % 90_000_000)).padStart(8, '0');
    const shape = n % 3;
    const phone =
      shape === 0
        ? `(${ddd}) 9${number.slice(0, 4)}-${number.slice(4)}`
        : shape === 1
          ? `+55 ${ddd} 9${number.slice(0, 4)}-${number.slice(4)}`
          : `55${ddd}9${number}`;
    const name = `${FIRST[n % FIRST.length]} ${LAST[Math.floor(n / 10) % LAST.length]} ${n}`;
    rows.push([name, phone, n % 4 === 0 ? `contato${n}@example.com` : '', n % 5 === 0 ? 'cliente, vip' : 'lead']);
  }
  return rows;
}

export const toCsvText = (rows: string[][]) =>
  `${rows.map((r) => r.map((c) => (c.includes(';') ? `"${c}"` : c)).join(';')).join('\n')}\n`;

export function toXlsxBuffer(rows: string[][]): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Contatos');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

/**
 * An approved customer moved to an unlimited plan (Enterprise; Premium also allows 10 WhatsApp
 * numbers), signed in.
 */
export async function unlimitedCustomer(
  server: DisparoServer,
  index: number,
  planType: 'enterprise' | 'premium' = 'enterprise',
): Promise<string> {
  const [customer] = await createApprovedCustomers(server, 1, index);
  const adminCookie = await login(server.url, server.admin.username, server.admin.password);
  expectStatus(
    await request(server.url, 'PATCH', `/api/admin/users/${customer.id}`, {
      json: { planType },
      cookie: adminCookie,
    }),
    200,
    `move the customer to ${planType}`,
  );
  return login(server.url, customer.username, customer.password);
}

/** POST /api/contacts/import with the file as multipart field `file`; resolves with the JSON answer. */
export function uploadContacts(
  baseUrl: string,
  cookie: string,
  filename: string,
  data: Buffer,
): Promise<{ status: number; body: { success: boolean; imported: number; duplicates: number; errors: unknown[] } }> {
  const boundary = `----bench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const payload = Buffer.concat([head, data, tail]);
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL('/api/contacts/import', baseUrl),
      {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': payload.length,
          cookie,
          origin: new URL(baseUrl).origin,
          accept: 'application/json',
        },
        timeout: 600_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          } catch {
            reject(new Error(`import answered ${res.statusCode}: ${text.slice(0, 300)}`));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
