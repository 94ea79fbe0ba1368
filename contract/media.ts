/** Images the server downloads from a link a customer gave (campaigns, saved messages, bot rules). */

/** Meta's published limit for an image sent through the Cloud API; the personal number uses the same. */
export const LINKED_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** The image types WhatsApp accepts for an image message. */
export const LINKED_IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;

export const mediaMsg = {
  /**
   * One answer whatever went wrong (an internal address, a closed port, a timeout, a wrong type, too
   * big): a different answer per reason would let an account map the server's network.
   */
  imageUnavailable:
    'Não foi possível baixar a imagem do link. Use o link público (http ou https) de uma imagem JPG ou PNG de até 5 MB.',
  imageUrlNotPublic:
    'Link da imagem não aceito: use o endereço público de uma imagem na internet, não um endereço local ou interno.',
  /** As `imageUnavailable`, for a link to any file (documents, audio, video). */
  fileUnavailable:
    'Não foi possível baixar o arquivo do link. Use o link público (http ou https) de um arquivo que responda em até 60 segundos, ou envie o arquivo.',
  fileUrlNotPublic:
    'Link do arquivo não aceito: use o endereço público de um arquivo na internet, não um endereço local ou interno.',
};

/** How long the server waits for a linked file (up to 100 MB) before giving up. */
export const LINKED_FILE_TIMEOUT_MS = 60_000;
