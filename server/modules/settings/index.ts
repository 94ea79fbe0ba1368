/** The settings module's public surface: what app.ts and other modules may import (server/README.md). */
export {
  getAccountSettings,
  notificationSettingsOf,
  restoreSettings,
  updateAccountSettings,
  whatsappSettingsOf,
} from './account-settings.service';
export { updateBusinessHours } from './business-hours.service';
export { changePasswordRoutes, settingsRoutes } from './settings.routes';
