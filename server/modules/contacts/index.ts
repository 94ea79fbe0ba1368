/** The contacts module's public surface: what app.ts and other modules may import (server/README.md). */
export { contactsRoutes } from './contacts.routes';
export {
  type Account,
  lockRemainingSlots,
  type RestoredContact,
  type RestorePace,
  restoreContacts,
} from './contacts.service';
export { contactsChanged, contactsState } from './contacts-state';
