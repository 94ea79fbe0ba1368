/** Pure helpers of the 'Verificação em duas etapas' card. */

/** The base32 secret in groups of four, as authenticator apps show it, easier to type by hand. */
export function formatSecret(secret: string): string {
  return (
    secret
      .replace(/\s+/g, '')
      .toUpperCase()
      .match(/.{1,4}/g)
      ?.join(' ') ?? ''
  );
}

/** The recovery codes as the copy button puts them on the clipboard: one a line, with a heading. */
export function recoveryCodesText(codes: readonly string[], heading: string): string {
  return [heading, '', ...codes].join('\n');
}
