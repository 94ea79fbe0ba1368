/** The admin module's public surface: what app.ts and other modules may import (server/README.md). */
export { adminRoutes } from './admin.routes';
