/** The auth module's public surface: what app.ts, main.ts and other modules may import (server/README.md). */
export { authRoutes } from './auth.routes';
export { adminPasswordNotice, ensureAdmin, toPublicUser } from './auth.service';
export { seedDemoWorkspace } from './demo-data';
export { emailConfirmationRoutes } from './email-confirmation.routes';
export { hashPassword, verifyPassword } from './password';
export { passwordResetRoutes } from './password-reset.routes';
export { twoFactorRoutes } from './two-factor.routes';
export { removeTwoFactor } from './two-factor.service';
