import type { z } from 'zod';
import { campaignMsg, type previewBody, type previewResponse } from '../../../contract/campaigns';
import { nameVariables, unknownVariable } from '../../../contract/personalize';
import { formatPhone } from '../../../contract/phone';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import type { AccountContext } from '../../plugins/account-context';
import { personalText } from '../../sending/content';
import { namelessRecipients, sampleRecipients } from './campaigns.service';

/** The message as three of the account's contacts would get it, and who of the audience has no name. */
export async function previewCampaign(
  deps: Pick<AppDeps, 'db' | 'state'>,
  ctx: AccountContext,
  input: z.infer<typeof previewBody>,
): Promise<z.infer<typeof previewResponse>> {
  const { message } = input;
  const unknown = unknownVariable(message);
  if (unknown) throw new AppError('VALIDATION', campaignMsg.unknownVariable(unknown));
  const sample = await sampleRecipients(deps.db, ctx.userId, 3);
  // Only a message that writes the name needs to know who has none.
  const nameless =
    nameVariables(message).length > 0
      ? await namelessRecipients(deps.db, deps.state, ctx.user, input, 3)
      : { count: 0, phones: [] };
  return {
    previews: sample.map((c) => ({
      name: c.name,
      phone: formatPhone(c.phone),
      text: personalText(message, {
        recipient: c.phone.replace('+', ''),
        kind: 'contact',
        name: c.name,
        email: c.email,
      }),
    })),
    fallbackCount: nameless.count,
    fallbackExamples: nameless.phones.map(formatPhone),
  };
}
