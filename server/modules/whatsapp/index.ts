/** The WhatsApp module's public surface (HTTP and the settings form): what app.ts may import (server/README.md). */
export { cloudApiRoutes } from './cloud-api.routes';
export { type CloudApiSettings, cloudApiSettingsOf } from './cloud-api.service';
export { sessionPollFastPath } from './session-poll.fast-path';
export { webhookFastPath } from './webhook.fast-path';
export { whatsappSessionRoutes } from './whatsapp.routes';
