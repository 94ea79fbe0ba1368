/** The chatbot settings module's public surface: what app.ts and other modules may import (server/README.md). */
export { botConfigRoutes } from './bot-config.routes';
export { getBotConfig, restoreBot, ruleContent } from './bot-config.service';
