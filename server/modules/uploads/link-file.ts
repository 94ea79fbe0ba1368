import { LINKED_FILE_TIMEOUT_MS, mediaMsg } from '../../../contract/media';
import { MEDIA_MAX_BYTES } from '../../../contract/message-content';
import type { Upload } from '../../../contract/uploads';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { linkProblem, OutboundFetchError, type OutboundPolicy, openLinkedFile } from '../../lib/outbound-fetch';
import type { MediaStore } from '../../media/store';
import { saveFile } from './uploads.service';

const LARGEST = Math.max(...Object.values(MEDIA_MAX_BYTES));

export interface LinkFileDeps {
  db: Db;
  store: MediaStore;
  outbound: OutboundPolicy;
  quotaMb?: number;
  log?: { warn(obj: object, msg: string): void };
}

/**
 * A file a customer linked to (a PDF on their site, a video on their CDN), fetched once under the
 * outbound-fetch rules and kept as one of the account's files, exactly as if it had been uploaded:
 * its kind and type decided by its bytes, Meta's limit per kind, the account's room. A message that
 * names a link then sends that file — the link is not fetched again per recipient, and Meta never
 * sees it. Every fetch failure reads the same to the customer (the reason is logged, never shown:
 * a different answer per reason would map the server's network).
 */
export async function fileFromLink(deps: LinkFileDeps, userId: string, link: string): Promise<Upload> {
  if (linkProblem(link, deps.outbound)) throw new AppError('VALIDATION', mediaMsg.fileUrlNotPublic);
  try {
    const linked = await openLinkedFile(link, deps.outbound, { maxBytes: LARGEST, timeoutMs: LINKED_FILE_TIMEOUT_MS });
    return await saveFile(deps.db, deps.store, userId, linked, { quotaMb: deps.quotaMb });
  } catch (err) {
    if (err instanceof OutboundFetchError) {
      deps.log?.warn({ reason: err.reason, host: hostOf(link) }, 'file link refused');
      throw new AppError('VALIDATION', mediaMsg.fileUnavailable);
    }
    throw err;
  }
}

function hostOf(link: string): string {
  try {
    return new URL(link).host;
  } catch {
    return '';
  }
}
