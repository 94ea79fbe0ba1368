import type { Db } from '../../db/client';
import { autoReplies, botConfigs, botEvents, campaignRecipients, campaigns, contacts, groups } from '../../db/schema';

const SAMPLE_CONTACTS = [
  {
    name: 'Exemplo - Ana Souza',
    phone: '+5511990000001',
    email: 'ana.exemplo@example.com',
    tags: ['exemplo', 'cliente'],
  },
  { name: 'Exemplo - Bruno Lima', phone: '+5521990000002', email: null, tags: ['exemplo', 'lead'] },
  {
    name: 'Exemplo - Carla Mendes',
    phone: '+5531990000003',
    email: 'carla.exemplo@example.com',
    tags: ['exemplo', 'vip'],
  },
  { name: 'Exemplo - Diego Rocha', phone: '+5541990000004', email: null, tags: ['exemplo'] },
  { name: 'Exemplo - Elisa Prado', phone: '+5551990000005', email: null, tags: ['exemplo', 'cliente'] },
  { name: 'Exemplo - Fábio Nunes', phone: '+5561990000006', email: null, tags: ['exemplo', 'lead'] },
];

/**
 * The clearly-labelled sample workspace a demo account starts with, so its dashboard shows real
 * figures computed from stored rows: contacts, groups, one finished campaign with its report lines,
 * bot replies and a few bot conversations.
 */
export async function seedDemoWorkspace(db: Db, userId: string): Promise<void> {
  const now = Date.now();
  const ago = (minutes: number) => new Date(now - minutes * 60_000);

  const insertedContacts = await db
    .insert(contacts)
    .values(SAMPLE_CONTACTS.map((c, i) => ({ ...c, userId, createdAt: ago(600 - i) })))
    .returning({ id: contacts.id, phone: contacts.phone });

  await db.insert(groups).values([
    { userId, name: 'Exemplo - Clientes VIP', whatsappGroupId: '120363000000000001@g.us', membersCount: 48 },
    { userId, name: 'Exemplo - Promoções', whatsappGroupId: '120363000000000002@g.us', membersCount: 212 },
  ]);

  const [campaign] = await db
    .insert(campaigns)
    .values({
      userId,
      name: 'Exemplo - Boas-vindas de novembro',
      message: 'Olá! Esta é uma campanha de exemplo da conta demo. Aproveite 10% de desconto esta semana.',
      status: 'completed',
      targetType: 'all',
      createdAt: ago(180),
      startedAt: ago(175),
      finishedAt: ago(170),
    })
    .returning({ id: campaigns.id });
  const outcomes = ['read', 'read', 'delivered', 'read', 'delivered', 'failed'] as const;
  await db.insert(campaignRecipients).values(
    insertedContacts.map((c, i) => ({
      campaignId: campaign.id,
      userId,
      contactId: c.id,
      recipient: c.phone,
      status: outcomes[i % outcomes.length],
      providerMessageId: `demo-${i}`,
      error: outcomes[i % outcomes.length] === 'failed' ? 'Número sem WhatsApp (exemplo)' : null,
      attempts: 1,
      updatedAt: ago(170),
    })),
  );

  await db.insert(botConfigs).values({
    userId,
    isEnabled: true,
    welcomeMessage: 'Olá! Esta é a mensagem de boas-vindas de exemplo. Como podemos ajudar?',
  });
  await db.insert(autoReplies).values([
    { userId, trigger: 'preço', response: 'Exemplo: nossos planos começam em R$ 25,00 por mês.', position: 0 },
    { userId, trigger: 'horário', response: 'Exemplo: atendemos de segunda a sexta, das 9h às 18h.', position: 1 },
    { userId, trigger: 'suporte', response: 'Exemplo: um atendente vai responder em instantes.', position: 2 },
  ]);
  const events: Array<typeof botEvents.$inferInsert> = [];
  insertedContacts.slice(0, 4).forEach((c, i) => {
    events.push({ userId, contactPhone: c.phone, kind: 'inbound', createdAt: ago(60 - i * 5) });
    events.push({
      userId,
      contactPhone: c.phone,
      kind: i === 0 ? 'welcome' : 'auto_reply',
      createdAt: ago(60 - i * 5),
    });
  });
  events.push({ userId, contactPhone: insertedContacts[4].phone, kind: 'inbound', createdAt: ago(20) });
  events.push({ userId, contactPhone: insertedContacts[4].phone, kind: 'no_match', createdAt: ago(20) });
  await db.insert(botEvents).values(events);
}
