import { useMutation } from '@tanstack/react-query';
import type { Upload } from '#contract/uploads';
import { ApiError } from './api';

/** Sends one image as multipart (field `file`); the server decides by its bytes whether it is one. */
export async function uploadImage(file: File, signal?: AbortSignal): Promise<Upload> {
  const form = new FormData();
  form.append('file', file);
  const response = await fetch('/api/uploads', {
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
