import { expect } from 'vitest';
import { apiUpload } from './http-session';
import { type ApiAnswer, apiFetch, type HttpSession } from './raw-http';
import { sendingSettings } from './sending-settings';

/**
 * Makes the Cloud API the account's channel, over a real socket: its credentials saved (checked
 * against the fake Graph API), any hour, a daily limit it never reaches. Answers the configure answer.
 */
export async function sendThroughCloud(
  s: HttpSession,
  credentials: { accessToken: string; phoneNumberId: string; appSecret?: string },
): Promise<ApiAnswer> {
  const configured = await apiFetch(s.base, s.cookie, 'POST', '/api/whatsapp-business/configure', credentials);
  expect(configured.status, configured.text).toBe(200);
  const settings = await apiFetch(s.base, s.cookie, 'PUT', '/api/settings/whatsapp', sendingSettings());
  expect(settings.status, settings.text).toBe(200);
  return configured;
}

/** Imports `count` contacts named `Cliente N` with numbers +55 21 9 from `first` on, as a CSV upload. */
export async function importNumberedContacts(s: HttpSession, count: number, first: number): Promise<void> {
  const csv = ['Nome,Telefone', ...Array.from({ length: count }, (_, i) => `Cliente ${i},+55219${first + i}`)];
  const imported = await apiUpload(s, '/api/contacts/import', { name: 'c.csv', data: csv.join('\n') });
  expect(imported.body.imported, imported.text).toBe(count);
}

/** A Cloud API webhook delivery (Meta's shape) of one inbound message from `from` to the number. */
export function inboundDelivery(
  number: { phoneNumberId: string; displayPhoneNumber: string },
  from: string,
  id: string,
  message: Record<string, unknown>,
  profileName = 'Cliente',
): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '209',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: number.displayPhoneNumber, phone_number_id: number.phoneNumberId },
              contacts: [{ profile: { name: profileName }, wa_id: from }],
              messages: [{ from, id, timestamp: String(Math.floor(Date.now() / 1000)), ...message }],
            },
          },
        ],
      },
    ],
  });
}
