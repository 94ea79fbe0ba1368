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
};
