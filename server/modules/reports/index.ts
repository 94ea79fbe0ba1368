/** The reports module's public surface: what app.ts may import (server/README.md). */
export { reportsRoutes } from './reports.routes';
