/** Lower case without accents: how names are searched and how the chatbot compares words. */
export function searchKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
