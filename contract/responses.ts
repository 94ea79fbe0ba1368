import { z } from 'zod';

/** The answer of an action that only reports how it went (SPEC §7: `{ success, message }`). */
export const okResponse = z.object({ success: z.boolean(), message: z.string() });
export type OkResponse = z.infer<typeof okResponse>;
