import { z } from 'zod';
import { whatsappNumberField } from './auth';
import { MEDIA_KINDS, messageLocationSchema } from './message-content';
import { phoneDigits } from './phone';
import { text } from './text';

/** pt-BR texts of the WhatsApp connection (personal number) and channel choice. */
export const whatsappMsg = {
  connectStarted: 'Conexão iniciada. Escaneie o QR code com o WhatsApp.',
  pairingStarted: 'Digite o código de pareamento no WhatsApp do celular.',
  disconnected: 'WhatsApp desconectado com sucesso.',
  notConnected: 'O WhatsApp não está conectado.',
  answerTooLarge:
    'O WhatsApp respondeu com dados demais para repassar entre os servidores (mais de 512 KB). Tente de novo com menos itens ou fale com o suporte.',
  simulatorOnly: 'Disponível apenas com o simulador.',
  connectFailed: 'Não foi possível iniciar a conexão. Tente novamente.',
  /** The same words as connectionsMsg.notFound (contract/connections.ts imports this file, not the reverse). */
  numberNotFound: 'Número não encontrado.',
  simulatorPersonalOnly: 'O simulador só atende números de WhatsApp pessoal.',
  restrictionArmed: 'O próximo envio deste número vai falhar com a restrição do WhatsApp.',
  restrictionCodeInvalid: 'Código de restrição inválido. Use 463 ou 131048',
} as const;

/** `POST /api/whatsapp/connect`: no body starts a QR pairing; a phone number asks for a pairing code instead. */
export const connectWhatsappInput = z
  .object({
    phoneNumber: whatsappNumberField.transform(phoneDigits).optional(),
  })
  .nullish();
export type ConnectWhatsappInput = z.infer<typeof connectWhatsappInput>;

/** The dialog's 'Conectar com número de telefone' form: the number is required there. */
export const pairingCodeForm = z.object({ phoneNumber: whatsappNumberField.transform(phoneDigits) });

export const connectWhatsappResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  /** Eight characters to type on the phone (WhatsApp › Aparelhos conectados › Conectar com número). */
  pairingCode: z.string().nullable(),
});
export type ConnectWhatsappResponse = z.infer<typeof connectWhatsappResponse>;

/**
 * Ours, simulator only: which of the account's numbers (`/api/connections` id, a personal one) a
 * simulator route acts on. Absent: the account's primary personal number, as before numbers.
 */
const simulatedNumberField = z.uuid({ error: whatsappMsg.numberNotFound }).optional();

/** About 6 MB of file: enough for any demo; the simulator's route alone accepts a body this large. */
export const SIMULATED_MEDIA_MAX_BASE64 = 8_000_000;

/** Simulator only: a message "arriving" from a contact, on `connectionId` or the primary personal number. */
export const simulateInboundInput = z
  .object({
    from: text().trim().min(8).max(32),
    /** The text, or a file's caption; may be empty when the message carries something else. */
    text: text().max(4096).default(''),
    connectionId: simulatedNumberField,
    /** A file the contact sends: its bytes as base64 (at most SIMULATED_MEDIA_MAX_BASE64 characters). */
    media: z
      .object({
        kind: z.enum(MEDIA_KINDS),
        mimeType: z.string().trim().min(3).max(100),
        fileName: text().max(255).optional(),
        dataBase64: z.base64().min(1).max(SIMULATED_MEDIA_MAX_BASE64),
        durationSeconds: z.number().int().min(0).max(86_400).optional(),
        voice: z.boolean().optional(),
      })
      .optional(),
    location: messageLocationSchema
      .extend({
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
        name: text().max(500).optional(),
        address: text().max(500).optional(),
      })
      .optional(),
    contactCard: z
      .object({
        name: text().max(200),
        phone: z
          .string()
          .regex(/^\d{6,20}$/)
          .nullable(),
      })
      .optional(),
    /** A reaction to a message of the conversation, by its provider id ('' emoji takes it back). */
    reaction: z.object({ emoji: text().max(20), providerMessageId: z.string().min(1).max(256) }).optional(),
    /** The provider id of the message this one quotes. */
    replyTo: z.string().min(1).max(256).optional(),
    /** A kind of message the product does not show (poll, call…): arrives as "tipo não suportado". */
    unsupported: z.string().trim().min(1).max(50).optional(),
  })
  .refine((m) => m.text.trim() || m.media || m.location || m.contactCard || m.reaction || m.unsupported, {
    error: 'Envie um texto, um arquivo, uma localização, um contato ou uma reação.',
    path: ['text'],
  });
export type SimulateInboundInput = z.infer<typeof simulateInboundInput>;

/** The WhatsApp codes that restrict a number (server/sending/failures.ts): 463 (time lock), 131048 (spam). */
export const simulatedRestrictions = ['463', '131048'] as const;

/**
 * Simulator only, a fault switch for tests and demos: the number's next send fails as WhatsApp
 * fails it when it restricts a number (the sending engine then marks the number restricted).
 */
export const simulateRestrictionInput = z
  .object({
    connectionId: simulatedNumberField,
    code: z.enum(simulatedRestrictions, { error: whatsappMsg.restrictionCodeInvalid }).default('463'),
  })
  .nullish();
export const simulateRestrictionResponse = z.object({ success: z.boolean(), message: z.string() });
export const simulateInboundResponse = z.object({ success: z.boolean(), providerMessageId: z.string() });

/** One message a simulated number sent. */
export const simulatedSend = z.object({
  to: z.string(),
  at: z.string(),
  providerMessageId: z.string(),
  /** Ours: what kind of message it was. */
  kind: z.enum(['text', 'image', 'interactive', 'template', 'media', 'location', 'contact']).optional(),
  /** Ours: for an image sent with its bytes (an upload), how many bytes went out. */
  imageBytes: z.number().int().optional(),
  /** Ours, for a file (`media`): its kind, name, type and whether it went as a voice note. */
  mediaKind: z.enum(['image', 'document', 'audio', 'video', 'sticker']).optional(),
  fileName: z.string().optional(),
  mimeType: z.string().optional(),
  voice: z.boolean().optional(),
  /** Ours, for a file read from the store: how many bytes went out and their SHA-256 (hex); never the bytes. */
  mediaBytes: z.number().int().optional(),
  sha256: z.string().optional(),
  /** Ours: the caption sent with a file. */
  caption: z.string().optional(),
  /** Ours: a location sent. */
  location: z
    .object({
      latitude: z.number(),
      longitude: z.number(),
      name: z.string().optional(),
      address: z.string().optional(),
    })
    .optional(),
  /** Ours: a contact card sent. */
  contactCard: z.object({ name: z.string(), phone: z.string().nullable() }).optional(),
});
export type SimulatedSend = z.infer<typeof simulatedSend>;

/** Simulator only: what the simulated number sent, oldest first (browser tests count it). */
export const simulatorOutboxResponse = z.object({ messages: z.array(simulatedSend) });

export const whatsappChannels = ['personal', 'cloud'] as const;
export type WhatsappChannel = (typeof whatsappChannels)[number];

/** Which channel sends for the account and whether it is ready (connection card, campaign dialog). */
export const whatsappChannelResponse = z.object({
  channel: z.enum(whatsappChannels),
  ready: z.boolean(),
  personal: z.object({ connected: z.boolean(), phoneNumber: z.string().nullable() }),
  cloud: z.object({ configured: z.boolean(), phoneNumber: z.string().nullable() }),
});
export type WhatsappChannelInfo = z.infer<typeof whatsappChannelResponse>;
