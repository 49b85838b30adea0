// The live picture of a prisoner (decision 029): tracker online or offline, the age of the last fix
// (ticking), battery, the position on a small map, and links to the live map and the location history. Updated by
// the socket without a reload (use-live-device.ts).
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { clsx } from 'clsx';
import type { Prisoner } from '@prison/shared/prisoner';
import { DEFAULT_DEVICE_OFFLINE_SECONDS } from '@prison/shared/settings';
import { errorMessage } from '../../lib/api-client';
import { isStale, liveAgeText, useFeedHealth } from '../../lib/feed-health';
import { useNow } from '../../lib/use-now';
import { useClientSettings } from '../../lib/client-settings';
import { useGeofences } from '../../lib/geofence-list';
import { liveDevice } from './live-device';
import { useLiveDevice } from './use-live-device';

/** The map library arrives only when a position is drawn. */
const MiniMap = lazy(() => import('./mini-map'));



const linkClass =
  'inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-brand-700 hover:bg-slate-100';

export function LivePicture({ prisoner }: { prisoner: Prisoner }) {
  const deviceId = prisoner.tracking_device_id;
  const live = useLiveDevice(deviceId);
  const settings = useClientSettings();
  const now = useNow(1000);
  // While the feed is not live the age freezes and says so (decision 044).
  const stale = isStale(useFeedHealth().state);
  const offlineSeconds = settings.data?.deviceOfflineSeconds ?? DEFAULT_DEVICE_OFFLINE_SECONDS;
  const picture = live.query.data
    ? liveDevice(live.query.data, live.override, live.fetchedAt, now, offlineSeconds)
    : null;

  return (
    <section aria-labelledby="live-title" className="rounded-lg bg-white p-5 shadow-sm" data-testid="live-picture">
      <h2 id="live-title" className="mb-3 text-lg font-semibold text-slate-900">
        Live picture
      </h2>
      {!deviceId ? (
        <p className="text-sm text-slate-600" data-testid="live-no-tracker">
          No tracker assigned. Assign or register one under Tracking Device.
        </p>
      ) : live.query.isPending ? (
        <p role="status" className="text-sm text-slate-600">
          Loading the tracker...
        </p>
      ) : live.query.isError || !picture ? (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(live.query.error, 'Failed to fetch the tracker.')}
        </p>
      ) : (
        <div className="flex flex-col gap-3">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="font-medium text-slate-600">Tracker</dt>
            <dd data-testid="live-online" data-online={picture.online}>
              <span
                className={clsx(
                  'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-semibold',
                  picture.online ? 'bg-green-100 text-green-900' : 'bg-slate-200 text-slate-800',
                )}
              >
                <span
                  aria-hidden="true"
                  className={clsx('h-2 w-2 rounded-full', picture.online ? 'bg-green-600' : 'bg-slate-500')}
                />
                {picture.online ? 'Online' : 'Offline'}
              </span>
            </dd>
            <dt className="font-medium text-slate-600">Last fix</dt>
            <dd data-testid="live-last-fix">
              {picture.position?.fixAt != null ? (
                <time dateTime={new Date(picture.position.fixAt).toISOString()}>
                  {liveAgeText(picture.position.fixAt, now, stale)}
                </time>
              ) : (
                'No fix yet'
              )}
            </dd>
            <dt className="font-medium text-slate-600">Battery</dt>
            <dd data-testid="live-battery">
              {picture.device.last_battery != null ? `${Math.round(picture.device.last_battery)} %` : 'Unknown'}
            </dd>
            <dt className="font-medium text-slate-600">Position</dt>
            <dd data-testid="live-position">
              {picture.position
                ? `${picture.position.latitude.toFixed(5)}, ${picture.position.longitude.toFixed(5)}${picture.online ? '' : ' (last known)'}`
                : 'Not known'}
            </dd>
          </dl>
          {picture.position && <PositionMap {...picture.position} online={picture.online} />}
        </div>
      )}
      <nav aria-label="Tracking links" className="mt-4 flex flex-wrap gap-2">
        <Link to={deviceId ? `/live-map?device=${encodeURIComponent(deviceId)}` : '/live-map'} className={linkClass}>
          Show on live map
        </Link>
        <Link to={`/location-history?prisoner=${prisoner.prisoner_id}`} className={linkClass}>
          Location history
        </Link>
      </nav>
    </section>
  );
}

function PositionMap({ latitude, longitude, online }: { latitude: number; longitude: number; online: boolean }) {
  const settings = useClientSettings();
  const geofences = useGeofences();
  const loading = (
    <p role="status" className="text-sm text-slate-600">
      Loading map...
    </p>
  );
  if (settings.isPending) return loading;
  if (settings.isError)
    return <p className="text-sm text-red-700">{errorMessage(settings.error, 'Failed to load the map settings.')}</p>;
  return (
    <Suspense fallback={loading}>
      <MiniMap
        settings={settings.data}
        geofences={geofences.data ?? []}
        latitude={latitude}
        longitude={longitude}
        online={online}
      />
    </Suspense>
  );
}
