import type {
  AuthenticationCreds,
  AuthenticationState,
  SignalDataSet,
  SignalDataTypeMap,
} from '@whiskeysockets/baileys';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { whatsappAuthKeys } from '../../db/schema';
import { decryptSecret, encryptSecret } from '../../lib/crypto';

/** The runtime pieces of Baileys the auth state needs (passed in, so this file never loads Baileys itself). */
export interface BaileysAuthRuntime {
  BufferJSON: { replacer: (k: string, v: unknown) => unknown; reviver: (k: string, v: unknown) => unknown };
  initAuthCreds: () => AuthenticationCreds;
  /** `proto.Message.AppStateSyncKeyData.fromObject`, as useMultiFileAuthState does. */
  appStateSyncKeyFromObject: (value: unknown) => unknown;
}

export interface DatabaseAuthState {
  state: AuthenticationState;
  saveCreds(): Promise<void>;
  /** Forgets the credentials and every key (logged out). */
  clear(): Promise<void>;
  /** Whether credentials were found in the database (a restart reconnects without a QR). */
  restored: boolean;
}

const CREDS = 'creds';
const sqlExcludedValue = sql`excluded.value`;

/**
 * Baileys auth state kept in the database, modelled on useMultiFileAuthState: one `creds` row and one
 * row per signal key, each serialised with BufferJSON and encrypted with ENCRYPTION_KEY.
 */
export async function useDatabaseAuthState(
  db: Db,
  encryptionKey: Buffer,
  owner: { userId: string; connectionId: string },
  runtime: BaileysAuthRuntime,
): Promise<DatabaseAuthState> {
  const { userId, connectionId } = owner;
  const seal = (value: unknown) => encryptSecret(encryptionKey, JSON.stringify(value, runtime.BufferJSON.replacer));
  const open = (sealed: string) => JSON.parse(decryptSecret(encryptionKey, sealed), runtime.BufferJSON.reviver);
  const mine = eq(whatsappAuthKeys.connectionId, connectionId);

  const [credsRow] = await db
    .select({ value: whatsappAuthKeys.value })
    .from(whatsappAuthKeys)
    .where(and(mine, eq(whatsappAuthKeys.key, CREDS)));
  let creds: AuthenticationCreds;
  let restored = false;
  try {
    creds = credsRow ? open(credsRow.value) : runtime.initAuthCreds();
    restored = Boolean(credsRow);
  } catch {
    // Unreadable (the encryption key changed): start over with a new QR code.
    creds = runtime.initAuthCreds();
  }

  const write = async (rows: Array<{ key: string; value: string }>) => {
    if (!rows.length) return;
    await db
      .insert(whatsappAuthKeys)
      .values(rows.map((r) => ({ userId, connectionId, ...r })))
      .onConflictDoUpdate({
        target: [whatsappAuthKeys.connectionId, whatsappAuthKeys.key],
        set: { value: sqlExcludedValue },
      });
  };

  const state: AuthenticationState = {
    creds,
    keys: {
      get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
        const out: { [id: string]: SignalDataTypeMap[T] } = {};
        if (!ids.length) return out;
        const rows = await db
          .select()
          .from(whatsappAuthKeys)
          .where(
            and(
              mine,
              inArray(
                whatsappAuthKeys.key,
                ids.map((id) => `${type}-${id}`),
              ),
            ),
          );
        const byKey = new Map(rows.map((r) => [r.key, r.value]));
        for (const id of ids) {
          const sealed = byKey.get(`${type}-${id}`);
          if (!sealed) continue;
          let value = open(sealed);
          if (type === 'app-state-sync-key' && value) value = runtime.appStateSyncKeyFromObject(value);
          out[id] = value;
        }
        return out;
      },
      set: async (data: SignalDataSet) => {
        const upserts: Array<{ key: string; value: string }> = [];
        const deletes: string[] = [];
        for (const category of Object.keys(data) as Array<keyof SignalDataSet>) {
          for (const [id, value] of Object.entries(data[category] ?? {})) {
            const key = `${category}-${id}`;
            if (value) upserts.push({ key, value: seal(value) });
            else deletes.push(key);
          }
        }
        // Hundreds of pre-keys arrive at once: one statement per batch, never a query per key.
        for (let i = 0; i < upserts.length; i += 200) await write(upserts.slice(i, i + 200));
        if (deletes.length) await db.delete(whatsappAuthKeys).where(and(mine, inArray(whatsappAuthKeys.key, deletes)));
      },
    },
  };

  return {
    state,
    restored,
    saveCreds: () => write([{ key: CREDS, value: seal(state.creds) }]),
    clear: async () => {
      await db.delete(whatsappAuthKeys).where(mine);
    },
  };
}
