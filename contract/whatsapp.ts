import { z } from 'zod';

export const whatsappConnectionStates = ['disconnected', 'connecting', 'qr', 'connected'] as const;

/** Answer of the 2-second poll. `phoneNumber` null while connected means the number is still being detected. */
export const whatsappSessionResponse = z.object({
  phoneNumber: z.string().nullable(),
  isConnected: z.boolean(),
  state: z.enum(whatsappConnectionStates),
  qr: z.string().nullable(),
});
export type WhatsappSession = z.infer<typeof whatsappSessionResponse>;
