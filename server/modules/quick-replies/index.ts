/** The quick replies module's public surface: what app.ts may import (server/README.md). */
export { quickRepliesRoutes } from './quick-replies.routes';
