import { expect } from 'vitest';
import { signBody } from '../whatsapp/cloud-api/webhook';
import type { FakeGraphApi } from './fake-graph-api';
import { apiUpload } from './http-session';
import { type ApiAnswer, apiFetch, type HttpSession } from './raw-http';
import { sendingSettings } from './sending-settings';
import { apiCall, newCustomerWithCalls, type TestContext } from './test-app';

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

/** A Cloud API number as the fake Graph API and Meta's webhooks know it. */
export interface CloudNumber {
  phoneNumberId: string;
  displayPhoneNumber: string;
  verifiedName: string;
  businessAccountId: string;
  appSecret: string;
  /** The WhatsApp profile name of whoever writes in. */
  profileName: string;
}

/**
 * The number on the account behind `cookie`, through the app in the test's own process (injected
 * requests): the fake Graph API knows it (with a fresh token), its credentials are saved with app id
 * 123456, and the Cloud API becomes the channel with a daily limit of 1,000. `deliver` posts one
 * inbound message to its webhook, signed as Meta signs it.
 */
export async function cloudNumberInApp(ctx: TestContext, graph: FakeGraphApi, cookie: string, number: CloudNumber) {
  const { phoneNumberId, businessAccountId, appSecret } = number;
  const accessToken = `EAAG-${Math.random().toString(36).slice(2)}`;
  graph.addPhone(phoneNumberId, accessToken, number.displayPhoneNumber, number.verifiedName, {
    about: '',
    profile_picture_url: 'https://pps.whatsapp.net/v/foto.jpg',
    businessAccountId,
  });
  const configured = await apiCall(ctx, 'POST', '/api/whatsapp-business/configure', {
    cookie,
    payload: { accessToken, phoneNumberId, businessAccountId, appId: '123456', appSecret },
  });
  expect(configured.statusCode, configured.body).toBe(200);
  const settings = await apiCall(ctx, 'PUT', '/api/settings/whatsapp', {
    cookie,
    payload: { ...sendingSettings('cloud', 1000), messageDelay: 2 },
  });
  expect(settings.statusCode, settings.body).toBe(200);
  const webhookPath: string = configured.json().config.webhookPath;
  const deliver = (from: string, message: Record<string, unknown>, id: string) => {
    const body = inboundDelivery(number, from, id, message, number.profileName);
    return ctx.app.inject({
      method: 'POST',
      url: webhookPath,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, appSecret) },
      payload: body,
    });
  };
  return { webhookPath, deliver };
}

/** A new signed-in customer whose channel is the Cloud API `number` (`cloudNumberInApp`), with its API calls. */
export async function cloudCustomer(ctx: TestContext, graph: FakeGraphApi, number: CloudNumber) {
  const customer = await newCustomerWithCalls(ctx);
  return { ...customer, ...(await cloudNumberInApp(ctx, graph, customer.cookie, number)) };
}

/** Imports `count` contacts named `Cliente N` with numbers +55 21 9 from `first` on, as a CSV upload. */
export async function importNumberedContacts(s: HttpSession, count: number, first: number): Promise<void> {
  const csv = ['Nome,Telefone', ...Array.from({ length: count }, (_, i) => `Cliente ${i},+55219${first + i}`)];
  const imported = await apiUpload(s, '/api/contacts/import', { name: 'c.csv', data: csv.join('\n') });
  expect(imported.body.imported, imported.text).toBe(count);
}

/** A Cloud API webhook delivery in Meta's envelope: one change of the `messages` field, `value` as given. */
export function cloudWebhookBody(businessAccountId: string, value: Record<string, unknown>): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: businessAccountId, changes: [{ field: 'messages', value }] }],
  });
}

/** A Cloud API webhook delivery (Meta's shape) of one inbound message from `from` to the number. */
export function inboundDelivery(
  number: { phoneNumberId: string; displayPhoneNumber: string; businessAccountId?: string },
  from: string,
  id: string,
  message: Record<string, unknown>,
  profileName = 'Cliente',
): string {
  return cloudWebhookBody(number.businessAccountId ?? '209', {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: number.displayPhoneNumber, phone_number_id: number.phoneNumberId },
    contacts: [{ profile: { name: profileName }, wa_id: from }],
    messages: [{ from, id, timestamp: String(Math.floor(Date.now() / 1000)), ...message }],
  });
}
