import { z } from 'zod';

/** Zod's own messages (for anything without a custom text) in Portuguese, on server and browser alike. */
z.config(z.locales.ptBR());
