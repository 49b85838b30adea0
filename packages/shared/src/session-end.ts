// What a browser is told when its session ends, as schemas (the reasons and sentences: session-end-reasons).
import { z } from 'zod';
import { SESSION_END_REASONS } from './session-end-reasons';

export * from './session-end-reasons';

/** What a browser is told when its session ends: on its socket (`sessionEnded`) and in the 401 of its next request. */
export const sessionEnded = z.object({ reason: z.enum(SESSION_END_REASONS), message: z.string() });
export type SessionEnded = z.infer<typeof sessionEnded>;

/** A 401: `reason` is there when the token was a session that has ended, so the browser can say why. */
export const unauthorizedResponse = z.object({ message: z.string(), reason: z.enum(SESSION_END_REASONS).optional() });
