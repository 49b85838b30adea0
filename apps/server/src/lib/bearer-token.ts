// Bearer tokens of the routes a machine calls with a shared token (/metrics, the Traccar forwarder): read from the
// Authorization header and compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares in constant time: both sides are hashed to one length first, so neither length nor content leaks. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  return given !== undefined && timingSafeEqual(digest(given), digest(expected));
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export const bearer = (header: string | undefined) => /^Bearer (\S{1,500})$/i.exec(header ?? '')?.[1];
