/**
 * The file name a `Content-Disposition` header gives: the UTF-8 `filename*` (RFC 5987) when
 * present, so accents survive, else the plain `filename`.
 */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header ?? '')?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended);
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  return /filename="([^"]+)"/.exec(header ?? '')?.[1] ?? fallback;
}
