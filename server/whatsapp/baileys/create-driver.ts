import { linkedImageFetcher } from '../../lib/outbound-fetch';
import type { Driver, PersonalDriverContext } from '../driver';
import { type BaileysAuthRuntime, useDatabaseAuthState } from './auth-state';
import { BaileysDriver } from './baileys-driver';
import type { BaileysSocketLike } from './baileys-socket';

/** Builds the real driver; Baileys is imported here only, when a personal number is first used. */
export async function createBaileysDriver(ctx: PersonalDriverContext): Promise<Driver> {
  const baileys = await import('@whiskeysockets/baileys');
  const runtime: BaileysAuthRuntime = {
    BufferJSON: baileys.BufferJSON,
    initAuthCreds: baileys.initAuthCreds,
    appStateSyncKeyFromObject: (v) => baileys.proto.Message.AppStateSyncKeyData.fromObject(v as object),
  };
  const logger = ctx.log.child(
    { module: 'baileys', userId: ctx.userId, connectionId: ctx.connectionId },
    { level: 'warn' },
  );
  return new BaileysDriver({
    userId: ctx.userId,
    autoReconnect: ctx.autoReconnect,
    log: ctx.log,
    fetchImage: linkedImageFetcher({ allowPrivate: ctx.config.OUTBOUND_ALLOW_PRIVATE }, ctx.log),
    auth: () =>
      useDatabaseAuthState(
        ctx.db,
        ctx.config.ENCRYPTION_KEY,
        { userId: ctx.userId, connectionId: ctx.connectionId },
        runtime,
      ),
    makeSocket: (auth) =>
      baileys.makeWASocket({
        auth: { creds: auth.creds, keys: baileys.makeCacheableSignalKeyStore(auth.keys, logger as never) },
        logger: logger as never,
        browser: baileys.Browsers.ubuntu('Disparo'),
        markOnlineOnConnect: false,
        syncFullHistory: false,
        generateHighQualityLinkPreview: false,
      }) as unknown as BaileysSocketLike,
  });
}
