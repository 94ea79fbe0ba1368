/** The notifications module's public surface: what app.ts may import (server/README.md). */
export { ConnectionAlerts } from './connection-alerts';
export { notificationsRoutes } from './notifications.routes';
