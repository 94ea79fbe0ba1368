import type { AppDeps } from '../../deps';
import type { AccountContext } from '../../plugins/account-context';

/** The account's WhatsApp session as the 2-second poll reads it. */
export const getSessionStatus = (deps: Pick<AppDeps, 'registry'>, ctx: AccountContext) =>
  deps.registry.status(ctx.user);

/** A webhook subscription check (hub.verify_token → hub.challenge) for one account's Cloud number. */
export const verifyCloudWebhook = (
  deps: Pick<AppDeps, 'cloudApi'>,
  input: { accountKey: string; query: Record<string, string | undefined> },
) => deps.cloudApi.verifyWebhook(input.accountKey, input.query);

/** A webhook delivery, signed over its raw body; answers how many of its changes were applied. */
export const receiveCloudWebhook = (
  deps: Pick<AppDeps, 'cloudApi'>,
  input: { accountKey: string; raw: Buffer; signature: string | undefined },
) => deps.cloudApi.receiveWebhook(input.accountKey, input.raw, input.signature);
