/** The quick replies module's public surface: what app.ts may import (server/README.md). */
export { quickRepliesRoutes } from './quick-replies.routes';
export { restoreQuickReplies } from './quick-replies.service';
