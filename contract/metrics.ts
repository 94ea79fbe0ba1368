import { z } from 'zod';

/** Dashboard figures, each computed from stored rows. Rates are percentages from 0 to 100. */
export const metricsResponse = z.object({
  messagesSent: z.number().int(),
  activeContacts: z.number().int(),
  activeGroups: z.number().int(),
  openRate: z.number(),
  autoReplies: z.number().int(),
  activeChats: z.number().int(),
  responseRate: z.number(),
});
export type Metrics = z.infer<typeof metricsResponse>;
