/**
 * How text is compared wherever case and accents must not matter (SQL does the same with
 * `translate(...)` in `search_text`): one rule for the server's searches, the chatbot and the page.
 */

/** Lower case without accents ('Promoção' → 'promocao'): how names, tags and opt-out words are compared. */
export function foldText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/**
 * Words only: folded as {@link foldText}, punctuation as spaces, single spaces, trimmed
 * ('Qual o PREÇO?' → 'qual o preco'). How chatbot triggers and typed-back button titles are matched.
 */
export function normalizeForMatch(value: string): string {
  return foldText(value)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
