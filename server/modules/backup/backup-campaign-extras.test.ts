import { describe, expect, it } from 'vitest';
import { appPerFile } from '../../testing/app-per-file';
import { apiCall, createTestApp, newCustomer } from '../../testing/test-app';

/** A campaign's location and contact card go into the backup and come back with a restore. */
const ctx = appPerFile(() => createTestApp({}, undefined, { dispatcher: { autoStart: false } }));

describe('backup of a campaign with a location and a contact card', () => {
  it('keeps them, and restores a campaign of only a location', async () => {
    const { cookie } = await newCustomer(ctx);
    const created = await apiCall(ctx, 'POST', '/api/campaigns', {
      cookie,
      payload: {
        name: 'Só o endereço',
        message: '',
        location: { latitude: -23.55, longitude: -46.63, name: 'Loja' },
        contactCard: { name: 'Atendimento', phone: '(11) 98888-7777' },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const res = await apiCall(ctx, 'GET', '/api/backup', { cookie });
    expect(res.statusCode).toBe(200);
    const backup = JSON.parse(res.body) as { campaigns: Array<Record<string, unknown>> };
    expect(backup.campaigns[0]).toMatchObject({
      message: '',
      location: { latitude: -23.55, longitude: -46.63, name: 'Loja' },
      contactCard: { name: 'Atendimento', phone: '11988887777' },
    });

    const fresh = await newCustomer(ctx);
    const restored = await apiCall(ctx, 'POST', '/api/backup/restore', {
      cookie: fresh.cookie,
      file: { name: 'backup.json', data: res.body },
    });
    expect(restored.statusCode, restored.body.slice(0, 400)).toBe(200);
    const list = await apiCall(ctx, 'GET', '/api/campaigns', { cookie: fresh.cookie });
    const [campaign] = list.json() as Array<Record<string, unknown>>;
    expect(campaign).toMatchObject({
      name: 'Só o endereço',
      location: { latitude: -23.55, longitude: -46.63, name: 'Loja' },
      contactCard: { name: 'Atendimento', phone: '11988887777' },
    });

    // A campaign with nothing to send is refused.
    const empty = { ...backup, campaigns: [{ ...backup.campaigns[0], location: undefined, contactCard: undefined }] };
    const refused = await apiCall(ctx, 'POST', '/api/backup/restore', {
      cookie: fresh.cookie,
      file: { name: 'backup.json', data: JSON.stringify(empty) },
    });
    expect(refused.statusCode).toBe(400);
  });
});
