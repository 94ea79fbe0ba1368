/** The system module's public surface: what app.ts may import (server/README.md). */
export { systemRoutes } from './system.routes';
