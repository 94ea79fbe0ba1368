/** The campaigns module's public surface: what app.ts and other modules may import (server/README.md). */
export { restoreCampaigns } from './campaign-restore';
export { campaignsRoutes } from './campaigns.routes';
