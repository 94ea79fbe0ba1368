/** The connections module's public surface: the "Números" API (what app.ts may import, server/README.md). */
export { connectionsRoutes } from './connections.routes';
