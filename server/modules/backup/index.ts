/** The backup module's public surface: what app.ts may import (server/README.md). */
export { backupRoutes } from './backup.routes';
