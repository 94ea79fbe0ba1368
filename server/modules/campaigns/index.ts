/** The campaigns module's public surface: what app.ts may import (server/README.md). */
export { campaignsRoutes } from './campaigns.routes';
