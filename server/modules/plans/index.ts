/** The plans module's public surface: what app.ts may import (server/README.md). */
export { plansRoutes } from './plans.routes';
