// The phone app's protocol (docs/CLIENT-CONTRACT.md): Socket.IO `updateLocation`, now with the device's credentials in
// the handshake `auth: { deviceId, secret }`. Each fix is acknowledged `{ ok }` only after it is committed.
import { updateLocationEvent } from '@prison/shared';
import { DATABASE_UNAVAILABLE_MESSAGE, databaseUnavailableReason } from '../lib/database-errors';
import { HttpError } from '../lib/http-errors';
import type { RealtimeSocket } from '../plugins/realtime';
import { checkFix, FixRefused, parseFixTime, REFUSED_BY_DATABASE } from './fix';
import { countFixes, submitFrom } from './protocol-metrics';
import { ServiceStopped } from './pipeline/accept';
import type { FixSink } from './ports';

type Ack = (result: { ok: boolean; message?: string }) => void;

export function deviceSocketHandler(tracking: FixSink) {
  return async (socket: RealtimeSocket): Promise<boolean> => {
    const auth = (socket.handshake.auth ?? {}) as Record<string, unknown>;
    const id = typeof auth.deviceId === 'string' ? auth.deviceId : typeof auth.trackingId === 'string' ? auth.trackingId : '';
    const secret = typeof auth.secret === 'string' ? auth.secret : undefined;
    try {
      tracking.registry.authenticate(id, secret, { secretRequired: true });
    } catch {
      return false;
    }
    socket.data.deviceId = id;
    socket.on('updateLocation', (payload: unknown, ack?: Ack) => {
      const reply: Ack = typeof ack === 'function' ? ack : () => undefined;
      void countFixes(tracking.metrics, 'socketio', 1, () => receiveFix(tracking, id, secret, payload)).then(
        (ignored) => reply(ignored.length ? { ok: true, message: ignored.join('; ') } : { ok: true }),
        (error: unknown) => reply({ ok: false, message: failureMessage(error) }),
      );
    });
    return true;
  };
}

/** What the device is told: the reason of a refused fix, never a database error's text (it holds the SQL). */
function failureMessage(error: unknown): string {
  if (error instanceof HttpError || error instanceof ServiceStopped) return error.message;
  if (databaseUnavailableReason(error)) return DATABASE_UNAVAILABLE_MESSAGE;
  return 'Fix not stored; send it again';
}

/** Resolves with the measurements dropped for being out of range, once the fix is stored. */
async function receiveFix(tracking: FixSink, deviceId: string, secret: string | undefined, payload: unknown): Promise<string[]> {
  const parsed = updateLocationEvent.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FixRefused(`${issue?.path.join('.') || 'fix'}: ${issue?.message ?? 'is invalid'}`);
  }
  const event = parsed.data;
  if (event.trackingId !== deviceId) throw new FixRefused('trackingId does not match the connected device');
  // The secret may have been rotated or the device removed since the socket connected.
  tracking.registry.authenticate(deviceId, secret, { secretRequired: true });
  const { fix, ignored } = checkFix(
    {
      deviceId,
      latitude: event.latitude,
      longitude: event.longitude,
      recordedAt: parseFixTime(event.timestamp),
      accuracy: event.accuracy ?? null,
      battery: event.battery ?? null,
    },
    { maxFutureSeconds: tracking.maxFutureSeconds },
  );
  const [outcome] = await submitFrom(tracking, 'socketio', [fix]);
  // Removed while the fix waited for its transaction.
  if (outcome === 'refused') throw new FixRefused(`Unknown device ${deviceId}`);
  if (outcome === 'invalid') throw new FixRefused(REFUSED_BY_DATABASE);
  return ignored;
}
