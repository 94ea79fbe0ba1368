/** The metrics module's public surface: what app.ts and other modules may import (server/README.md). */
export { metricsRoutes } from './metrics.routes';
export { getReport } from './metrics.service';
