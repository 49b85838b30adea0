// Errors a service throws to answer with a status and a one-sentence message.
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** More fields of the answer beside `message` (a cell-rule refusal's `rule`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooManyRequests = (message: string) => new HttpError(429, message);
/** A cell move refused by a rule (decision 031): 409 `{ message, rule }`. */
export const ruleConflict = (message: string, rule: string) => new HttpError(409, message, { rule });
