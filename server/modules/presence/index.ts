/** The presence module's public surface: what app.ts may import (server/README.md). */
export { presenceRoutes } from './presence.routes';
