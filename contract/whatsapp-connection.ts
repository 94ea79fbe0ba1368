import { z } from 'zod';
import { whatsappNumberField } from './auth';
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

/** Simulator only: a message "arriving" from a contact, on `connectionId` or the primary personal number. */
export const simulateInboundInput = z.object({
  from: text().trim().min(8).max(32),
  text: text().min(1).max(4096),
  connectionId: simulatedNumberField,
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
  kind: z.enum(['text', 'image', 'interactive', 'template']).optional(),
  /** Ours: for an image sent with its bytes (an upload), how many bytes went out. */
  imageBytes: z.number().int().optional(),
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
