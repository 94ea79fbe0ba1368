import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { backupMsg, type RestoreResult } from '../../../contract/backup';
import { rowsOf } from '../../db/rows';
import { NOT_ACCEPTED } from '../../media/file-type';
import { appPerFile } from '../../testing/app-per-file';
import { oggOpusFile } from '../../testing/ogg-opus';
import { apiCall, createTestApp, newCustomerWithCalls } from '../../testing/test-app';
import { base64Pieces, CorruptedBase64, decodeBase64InTurns } from './backup-files';
import { Turns } from './backup-json';

// A backup's room for files, small enough for a test to go over it with a few files.
vi.mock('../../../contract/backup', async (original) => ({
  ...(await original<typeof import('../../../contract/backup')>()),
  BACKUP_MEDIA_MAX_MB: 1,
}));

/**
 * A backup carries the files of the media store its rows send (a campaign's PDF, a bot rule's
 * audio) and a restore brings them back as files of the restoring account, judged by their bytes.
 */
const ctx = appPerFile(() => createTestApp({}, undefined, { dispatcher: { autoStart: false } }));

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const pdf = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(bytes), Buffer.from('\n%%EOF\n')]);
const MP3 = Buffer.concat([Buffer.from('ID3\u0003\u0000\u0000\u0000\u0000\u0000\u0000', 'latin1'), randomBytes(7001)]);
/** A Windows program's first bytes. */
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00', 'latin1'), randomBytes(4000)]);

type Json = Record<string, unknown>;

async function account() {
  const c = await newCustomerWithCalls(ctx, { planType: 'premium' });
  const upload = async (name: string, data: Buffer) => {
    const res = await apiCall(ctx, 'POST', '/api/uploads', { cookie: c.cookie, file: { name, data } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };
  const campaign = async (name: string, mediaUrl: string) => {
    const res = await c.call('POST', '/api/campaigns', { name, message: 'Segue o arquivo', mediaUrl });
    expect(res.statusCode, res.body).toBe(200);
  };
  const download = async () => {
    const res = await apiCall(ctx, 'GET', '/api/backup', { cookie: c.cookie });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return res.body;
  };
  const restore = async (file: string): Promise<RestoreResult> => {
    const res = await apiCall(ctx, 'POST', '/api/backup/restore', {
      cookie: c.cookie,
      file: { name: 'backup.json', data: Buffer.from(file) },
    });
    expect(res.statusCode, res.body.slice(0, 400)).toBe(200);
    return res.json();
  };
  const served = async (ref: unknown) => {
    const res = await apiCall(ctx, 'GET', `/api/uploads/${String(ref).replace(/^upload:/, '')}`, { cookie: c.cookie });
    return { status: res.statusCode, sha256: sha(res.rawPayload) };
  };
  const campaigns = async () => (await c.call('GET', '/api/campaigns')).json() as Json[];
  const rules = async () => (await c.call('GET', '/api/bot-config')).json().autoReplies as Json[];
  return { ...c, upload, campaign, download, restore, served, campaigns, rules };
}

describe('backup of files in the media store', () => {
  it('carries a campaign’s PDF and a rule’s audio, and restores them as the other account’s own files', async () => {
    const source = await account();
    const doc = pdf(200_000);
    const pdfId = await source.upload('Tabela de preços.pdf', doc);
    const audioId = await source.upload('boas-vindas.mp3', MP3);
    await source.campaign('Tabela', `upload:${pdfId}`);
    const saved = await source.call('POST', '/api/bot-config', {
      autoReplies: [{ trigger: 'audio', response: 'Ouça', type: 'audio', mediaUrl: `upload:${audioId}` }],
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const file = await source.download();
    const backup = JSON.parse(file);
    const entries = backup.media as Json[];
    expect(entries).toHaveLength(2);
    const byUrl = (id: string) => entries.find((e) => e.url === `upload:${id}`);
    expect(byUrl(pdfId)).toMatchObject({
      fileName: 'Tabela de preços.pdf',
      contentType: 'application/pdf',
      kind: 'document',
      size: doc.length,
      sha256: sha(doc),
      data: doc.toString('base64'),
    });
    expect(byUrl(audioId)).toMatchObject({ kind: 'audio', size: MP3.length, data: MP3.toString('base64') });
    expect(backup.files).toEqual({ included: true, count: 2, bytes: doc.length + MP3.length, notIncluded: 0 });
    expect(backup.mediaLeftOut).toBeUndefined();

    const target = await account();
    const result = await target.restore(file);
    expect(result.warnings).toEqual([]);
    expect(result.files).toEqual({ restored: 2, notRestored: 0 });
    const [campaign] = await target.campaigns();
    const [rule] = await target.rules();
    for (const [ref, original, bytes] of [
      [campaign.mediaUrl, pdfId, doc],
      [rule.mediaUrl, audioId, MP3],
    ] as const) {
      expect(ref).toMatch(/^upload:[0-9a-f-]{36}$/);
      expect(ref).not.toBe(`upload:${original}`);
      // The other account's file, the same bytes; the first account cannot see it, nor the second the first's.
      expect(await target.served(ref)).toEqual({ status: 200, sha256: sha(bytes) });
      expect((await source.served(ref)).status).toBe(404);
      expect((await target.served(original)).status).toBe(404);
    }
    expect(rule).toMatchObject({ trigger: 'audio', type: 'audio' });

    // Restored again: nothing new, no file stored twice.
    const again = await target.restore(file);
    expect(again.campaigns.added).toBe(0);
    expect(again.autoReplies.added).toBe(0);
    expect(again.files).toEqual({ restored: 0, notRestored: 0 });
  });

  it('restores a voice note as a voice note, its length read again from its bytes; a claimed one that is not stays audio', async () => {
    const source = await account();
    const note = oggOpusFile(4);
    const res = await apiCall(ctx, 'POST', '/api/uploads?voice=true', {
      cookie: source.cookie,
      file: { name: 'gravacao.ogg', data: note },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ voice: true, durationSeconds: 4 });
    const mp3Id = await source.upload('musica.mp3', MP3);
    const saved = await source.call('POST', '/api/bot-config', {
      autoReplies: [
        { trigger: 'voz', response: 'Ouça', type: 'audio', mediaUrl: `upload:${res.json().id}` },
        { trigger: 'musica', response: 'Ouça', type: 'audio', mediaUrl: `upload:${mp3Id}` },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const backup = JSON.parse(await source.download());
    const entry = (id: string) => (backup.media as Json[]).find((e) => e.url === `upload:${id}`);
    expect(entry(res.json().id)).toMatchObject({ kind: 'audio', voice: true });
    expect(entry(mp3Id)).not.toHaveProperty('voice');
    // An MP3 claimed as a voice note: its bytes are not Ogg Opus, so it comes back as audio.
    (entry(mp3Id) as Json).voice = true;

    const target = await account();
    const result = await target.restore(JSON.stringify(backup));
    expect(result.files).toEqual({ restored: 2, notRestored: 0 });
    const rules = await target.rules();
    const fileOf = async (trigger: string) => {
      const ref = String(rules.find((r) => r.trigger === trigger)?.mediaUrl).replace(/^upload:/, '');
      const [row] = rowsOf<{ voice: boolean; duration_seconds: number | null; user_id: string }>(
        await ctx.database.db.execute(
          sql`select voice, duration_seconds, user_id from media_uploads where id = ${ref}::uuid`,
        ),
      );
      return row;
    };
    expect(await fileOf('voz')).toEqual({ voice: true, duration_seconds: 4, user_id: target.user.id });
    expect(await fileOf('musica')).toEqual({ voice: false, duration_seconds: null, user_id: target.user.id });
  });

  it('leaves out what goes over the backup’s room, and says so in the file and on restore', async () => {
    const source = await account();
    const older = pdf(600_000);
    const newer = pdf(600_000);
    const olderId = await source.upload('antigo.pdf', older);
    await source.campaign('Antiga', `upload:${olderId}`);
    const newerId = await source.upload('novo.pdf', newer);
    await source.campaign('Nova', `upload:${newerId}`);

    const file = await source.download();
    const backup = JSON.parse(file);
    // The most recently used first: the newer campaign's file goes, the older one's stays out.
    expect((backup.media as Json[]).map((e) => e.url)).toEqual([`upload:${newerId}`]);
    expect(backup.mediaLeftOut).toEqual([`upload:${olderId}`]);
    expect(backup.files).toEqual({ included: false, count: 1, bytes: newer.length, notIncluded: 1 });

    const target = await account();
    const result = await target.restore(file);
    expect(result.files).toEqual({ restored: 1, notRestored: 1 });
    expect(result.warnings).toEqual([backupMsg.campaignFileNotRestored('Antiga', backupMsg.fileLeftOut)]);
    const list = await target.campaigns();
    const byName = (name: string) => list.find((c) => c.name === name);
    expect(byName('Antiga')?.mediaUrl ?? null).toBeNull();
    expect(await target.served(byName('Nova')?.mediaUrl)).toEqual({ status: 200, sha256: sha(newer) });
  });

  it('refuses a file whose bytes are not what it claims (a program named .pdf), counting it', async () => {
    const target = await account();
    const [good, bad] = [randomUUID(), randomUUID()];
    const doc = pdf(3000);
    const file = {
      format: 'disparo-backup',
      version: 1,
      exportedAt: '2026-12-01T10:00:00.000Z',
      campaigns: [
        {
          name: 'Boa',
          message: 'Oi',
          status: 'draft',
          createdAt: '2026-11-01T10:00:00.000Z',
          mediaUrl: `upload:${good}`,
        },
        {
          name: 'Falsa',
          message: 'Oi',
          status: 'draft',
          createdAt: '2026-11-02T10:00:00.000Z',
          mediaUrl: `upload:${bad}`,
        },
      ],
      media: [
        {
          url: `upload:${good}`,
          fileName: 'boa.pdf',
          kind: 'document',
          sha256: sha(doc),
          data: doc.toString('base64'),
        },
        {
          url: `upload:${bad}`,
          fileName: 'contrato.pdf',
          contentType: 'application/pdf',
          kind: 'document',
          sha256: sha(EXE),
          data: EXE.toString('base64'),
        },
      ],
    };
    const result = await target.restore(JSON.stringify(file));
    expect(result.campaigns.added).toBe(2);
    expect(result.files).toEqual({ restored: 1, notRestored: 1 });
    expect(result.warnings).toEqual([backupMsg.campaignFileNotRestored('Falsa', NOT_ACCEPTED)]);
    const list = await target.campaigns();
    expect(list.find((c) => c.name === 'Falsa')?.mediaUrl ?? null).toBeNull();
    expect(await target.served(list.find((c) => c.name === 'Boa')?.mediaUrl)).toEqual({
      status: 200,
      sha256: sha(doc),
    });

    // Bytes that do not match the SHA-256 the file gives are refused as corrupted.
    const other = await account();
    file.media[0].sha256 = sha(Buffer.from('outra coisa'));
    const tampered = await other.restore(JSON.stringify(file));
    expect(tampered.files).toEqual({ restored: 0, notRestored: 2 });
    expect(tampered.warnings).toContain(backupMsg.campaignFileNotRestored('Boa', backupMsg.fileCorrupted));
  });
});

describe('base64 in pieces', () => {
  it('encodes a stream in pieces that join into the base64 of the whole', async () => {
    const data = randomBytes(10_000);
    async function* chunks() {
      for (let at = 0; at < data.length; at += 1001) yield data.subarray(at, at + 1001);
    }
    const pieces: string[] = [];
    for await (const piece of base64Pieces(chunks(), 3 * 100)) pieces.push(piece);
    expect(pieces.length).toBeGreaterThan(10);
    expect(pieces.every((p) => p.length <= 400)).toBe(true);
    expect(pieces.join('')).toBe(data.toString('base64'));
  });

  it('decodes strict base64 in pieces, and refuses padding or stray characters anywhere', async () => {
    const decode = async (text: string) => {
      const parts: Buffer[] = [];
      for await (const p of decodeBase64InTurns(Buffer.from(text), 0, text.length, new Turns(), 8)) parts.push(p);
      return Buffer.concat(parts);
    };
    const data = randomBytes(1000);
    expect((await decode(data.toString('base64'))).equals(data)).toBe(true);
    for (const text of ['QQ==QUJD', 'QUJD RA=', 'QUJDRB==', 'QUJD-_==', 'QUJDRA=']) {
      await expect(decode(text), text).rejects.toBeInstanceOf(CorruptedBase64);
    }
  });
});
