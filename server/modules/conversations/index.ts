/** The conversations module's public surface: what app.ts may import (server/README.md). */
export { conversationsRoutes } from './conversations.routes';
