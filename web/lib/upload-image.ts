import { useMutation } from '@tanstack/react-query';
import type { Upload } from '#contract/uploads';
import { ApiError } from './api';

/** Sends one image as multipart (field `file`); the server decides by its bytes whether it is one. */
export function uploadImage(file: File, signal?: AbortSignal): Promise<Upload> {
  return uploadFile(file, { signal, imageOnly: true });
}

/**
 * Sends one file (an image, a document, an audio, a video) as multipart (field `file`); the server
 * decides by its bytes what it is. `voice`: a voice note recorded in the page.
 */
export async function uploadFile(
  file: File,
  opts: { voice?: boolean; imageOnly?: boolean; signal?: AbortSignal } = {},
): Promise<Upload> {
  const { signal } = opts;
  const form = new FormData();
  form.append('file', file);
  const query = opts.voice ? '?voice=true' : opts.imageOnly ? '?kind=image' : '';
  const response = await fetch(`/api/uploads${query}`, {
    method: 'POST',
    credentials: 'include',
    headers: { Accept: 'application/json' },
    body: form,
    signal,
  });
  const text = await response.text().catch(() => '');
  if (!response.ok) throw new ApiError(response.status, response.statusText, text);
  return JSON.parse(text) as Upload;
}

export function useUploadImage() {
  return useMutation({ mutationFn: (file: File) => uploadImage(file) });
}
