/** The saved messages module's public surface: what app.ts may import (server/README.md). */
export { messagesRoutes } from './messages.routes';
export { restoreSavedMessages, savedMessageAsContent } from './messages.service';
