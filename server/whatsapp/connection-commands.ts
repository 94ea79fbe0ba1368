import { msg } from '../../contract/messages';
import { AppError } from '../errors';
import { type FileOpener, withAccountFile } from './account-file';
import type { ConnectionDirectory, ConnectionEntry } from './connection-directory';
import type { ConnectionCommand } from './connection-rpc';
import { DriverError, type OutgoingMessage, type SendOptions } from './driver';
import type { PersonalDrivers } from './personal-drivers';
import type { SimulatedContent, SimulatedRestriction } from './simulator/simulator-driver';
import type { SimulatorHooks } from './simulator/simulator-hooks';
import { type ImageLoader, withUploadedImage } from './uploaded-image';

/** What a command from another process may act on here. */
export interface CommandTarget {
  directory: ConnectionDirectory;
  drivers: PersonalDrivers;
  simulator: SimulatorHooks;
  loadImage?: ImageLoader;
  /** Opens one of the account's files: a file handed over by id is read here. */
  openFile?: FileOpener;
  /** Pairs the number here (never handed on again). */
  connect: (entry: Pick<ConnectionEntry, 'id' | 'userId'>, opts: { phoneNumber?: string }) => Promise<unknown>;
  /** Logs the number out here. */
  disconnect: (entry: Pick<ConnectionEntry, 'id' | 'userId'>) => Promise<void>;
}

/** A command from another process for a connection this one holds. */
export async function runConnectionCommand(
  target: CommandTarget,
  { connectionId, op, args }: ConnectionCommand,
): Promise<unknown> {
  switch (op) {
    case 'connect': {
      const entry = await target.directory.byId(connectionId);
      if (!entry) throw new AppError('NOT_FOUND', msg.generic.notFound);
      return target.connect(entry, (args[0] ?? {}) as { phoneNumber?: string });
    }
    case 'disconnect': {
      const entry = await target.directory.byId(connectionId);
      return target.disconnect(entry ?? { id: connectionId, userId: '' });
    }
    case 'inject':
      return target.simulator.inboundOn(
        connectionId,
        String(args[0]),
        String(args[1]),
        (args[2] ?? undefined) as SimulatedContent | undefined,
      );
    case 'outbox':
      return target.simulator.outboxOf(connectionId);
    case 'restrict':
      return target.simulator.restrictionOn(connectionId, args[0] as SimulatedRestriction);
  }
  const driver = target.drivers.get(connectionId);
  if (!driver) throw new DriverError('transient', 'WhatsApp desconectado', 30_000);
  switch (op) {
    case 'send': {
      // An uploaded image or a file came as its id: read for the number's own account, never the caller's word.
      const owner = (await target.directory.byId(connectionId))?.userId;
      const message = args[1] as OutgoingMessage;
      const withImage = await withUploadedImage(message, owner ?? '', owner ? target.loadImage : undefined);
      const resolved = await withAccountFile(withImage, owner ?? '', owner ? target.openFile : undefined);
      return driver.send(String(args[0]), resolved, (args[2] ?? {}) as SendOptions);
    }
    case 'typing':
      return driver.typing?.(String(args[0]), Boolean(args[1]));
    case 'checkNumbers':
      return driver.checkNumbers(args[0] as string[]);
    case 'listGroups':
      return driver.listGroups();
    case 'groupParticipants':
      return driver.groupParticipants(String(args[0]));
    default:
      throw new Error(`unknown connection command ${op}`);
  }
}
