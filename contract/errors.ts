/** Error codes the API answers with, and the HTTP status each maps to. */
export const errorStatus = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  DEMO_EXPIRED: 403,
  FORBIDDEN: 403,
  DEMO_READ_ONLY: 403,
  ACCOUNT_PENDING: 403,
  ACCOUNT_INACTIVE: 403,
  CROSS_SITE: 403,
  /** The account requires two-factor sign-in and this login has not set it up (contract/two-factor.ts). */
  TWO_FACTOR_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  REQUEST_TIMEOUT: 408,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** Body of every error answer. `fieldErrors` maps a field path to its first message. */
export interface ErrorBody {
  success: false;
  code: ErrorCode;
  message: string;
  fieldErrors?: Record<string, string>;
}
