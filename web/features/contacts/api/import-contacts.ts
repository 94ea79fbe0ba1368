import type { ImportResult } from '#contract/contacts';
import { ApiError } from '#web/lib/api';
import { contactsQueryKey, metricsQueryKey, unreadCountQueryKey } from '#web/lib/query-keys';
import { useInvalidatingMutation } from '#web/lib/use-invalidating-mutation';

export type ImportPhase = { phase: 'upload'; percent: number } | { phase: 'processing' };

/**
 * Sends the file as multipart (field `file`), reporting upload progress and then the processing
 * phase (XMLHttpRequest, since fetch cannot report upload progress).
 */
export function importContacts(file: File, onProgress: (p: ImportPhase) => void): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/contacts/import');
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable) return;
      const percent = Math.round((e.loaded / e.total) * 100);
      onProgress(percent >= 100 ? { phase: 'processing' } : { phase: 'upload', percent });
    };
    xhr.upload.onload = () => onProgress({ phase: 'processing' });
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as ImportResult);
        } catch (err) {
          reject(err);
        }
      } else {
        reject(new ApiError(xhr.status, xhr.statusText, xhr.responseText));
      }
    };
    xhr.onerror = () => reject(new Error('network'));
    const form = new FormData();
    form.append('file', file);
    onProgress({ phase: 'upload', percent: 0 });
    xhr.send(form);
  });
}

export function useImportContacts() {
  // A successful import is notified: the bell shows it now rather than at its next poll.
  return useInvalidatingMutation(
    ({ file, onProgress }: { file: File; onProgress: (p: ImportPhase) => void }) => importContacts(file, onProgress),
    [contactsQueryKey, metricsQueryKey, unreadCountQueryKey],
  );
}

/** Download link of the import template. */
export const importTemplateUrl = (format: 'csv' | 'xlsx') => `/api/contacts/import-template?format=${format}`;
