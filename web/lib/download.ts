import { ApiError } from './api';
import { filenameFromDisposition } from './content-disposition';

/**
 * Fetches a file the API answers (so a failure shows as a toast instead of a broken download) and
 * hands it to the browser under the server's file name, or `fallbackName` when it sends none.
 */
export async function downloadFromApi(path: string, fallbackName: string): Promise<void> {
  const response = await fetch(path, { credentials: 'include' });
  if (!response.ok) throw new ApiError(response.status, response.statusText, await response.text());
  const name = filenameFromDisposition(response.headers.get('content-disposition'), fallbackName);
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
