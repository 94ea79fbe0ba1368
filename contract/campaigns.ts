import { z } from 'zod';

export const campaignStatuses = ['draft', 'scheduled', 'sending', 'in_progress', 'completed', 'failed'] as const;
export const campaignTargetTypes = ['all', 'groups', 'contacts'] as const;

export const campaignSchema = z.object({
  id: z.string(),
  name: z.string(),
  message: z.string(),
  status: z.string(),
  messagesSent: z.number().int(),
  messagesDelivered: z.number().int(),
  targetType: z.enum(campaignTargetTypes),
  targetGroups: z.array(z.string()),
  createdAt: z.string(),
});
export type Campaign = z.infer<typeof campaignSchema>;
export const campaignList = z.array(campaignSchema);
