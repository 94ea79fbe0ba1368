import { campaignMsg } from '../../../contract/campaigns';
import { formatPhone } from '../../../contract/phone';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { normalizePhone } from '../../lib/phone';
import type { AccountContext } from '../../plugins/account-context';
import { buildMessages } from '../../sending/content';
import { campaignFile, getCampaign } from './campaigns.service';

/**
 * Sends the campaign's message once to one number (by default the account's own WhatsApp number),
 * personalised for the user, through the account's connected number. Answers the pt-BR confirmation.
 */
export async function sendTestMessage(
  deps: Pick<AppDeps, 'db' | 'state' | 'drivers' | 'sending' | 'media'>,
  ctx: AccountContext,
  input: { campaignId: string; phone?: string },
): Promise<string> {
  const { user } = ctx;
  const campaign = await getCampaign(deps.db, deps.state, ctx.userId, input.campaignId);
  const driver = await deps.drivers.get(ctx.userId);
  if (!driver?.status().isConnected) throw new AppError('CONFLICT', campaignMsg.notConnected);
  const raw = input.phone?.trim() || driver.status().phoneNumber || '';
  if (!raw) throw new AppError('VALIDATION', campaignMsg.testPhoneRequired);
  const phone = normalizePhone(raw);
  if (!phone) throw new AppError('VALIDATION', campaignMsg.invalidPhone);
  const recipient = phone.replace('+', '');
  const messages = await buildMessages(
    {
      campaignId: campaign.id,
      message: campaign.message,
      imageUrl: campaign.imageUrl ?? null,
      mediaUrl: campaign.mediaUrl ?? null,
      mediaFile: await campaignFile(deps.db, ctx.userId, campaign.mediaUrl),
      templateName: campaign.templateName ?? null,
      templateLanguage: campaign.templateLanguage ?? null,
      templateVariables: campaign.templateVariables ?? [],
      location: campaign.location ?? null,
      contactCard: campaign.contactCard ?? null,
    },
    { recipient, kind: 'contact', name: user.name, email: user.email },
    {
      userId: ctx.userId,
      cloud: driver.kind === 'cloud',
      loadImage: deps.sending.loadImage,
      openFile: deps.media.openFile,
      byReference: driver.readsUploads,
    },
  );
  for (const message of messages) await driver.send(recipient, message);
  return campaignMsg.testSent(formatPhone(phone));
}
