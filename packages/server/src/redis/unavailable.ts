/** Raised when a shared backend (Redis, the account store) cannot be reached: requests then fail with 503, never skip a rule. */
export class BackendUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BackendUnavailableError";
  }
}
