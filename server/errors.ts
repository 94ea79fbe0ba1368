import { type ErrorCode, errorStatus } from '../contract/errors';

/** The one error type services throw; the error handler maps its code to a status. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors?: Record<string, string>,
  ) {
    super(message);
    this.statusCode = errorStatus[code];
  }
}
