/** The verification module's public surface: what app.ts may import (server/README.md). */
export { verificationRoutes } from './verification.routes';
export type { VerificationOptions } from './verification.service';
