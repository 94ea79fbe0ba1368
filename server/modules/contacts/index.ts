/** The contacts module's public surface: what app.ts and other modules may import (server/README.md). */
export { contactsRoutes } from './contacts.routes';
export {
  type Account,
  announceContactChanges,
  contactsChanged,
  forgetContacts,
  lockRemainingSlots,
  onContactsChanged,
  type RestoredContact,
  type RestorePace,
  restoreContacts,
} from './contacts.service';
