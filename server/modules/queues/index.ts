/** The queues module's public surface: what app.ts may import (server/README.md). */
export { queuesRoutes } from './queues.routes';
export { restoreQueues } from './queues.service';
