// Indoor readers on the map (decision 067): a small square-ish dot each, teal while reporting, grey when silent, with
// the name and state in a tooltip.
import { CircleMarker, Tooltip } from 'react-leaflet';
import type { Reader } from '@prison/shared/reader';

export const READER_COLORS = { reporting: '#0f766e', silent: '#6b7280' } as const;

export function ReaderLayer({ readers }: { readers: Reader[] }) {
  return (
    <>
      {readers.map((reader) => (
        <CircleMarker
          key={`${reader.id}:${reader.state}`}
          center={[reader.lat, reader.lng]}
          radius={6}
          pathOptions={{ color: '#ffffff', weight: 2, fillColor: READER_COLORS[reader.state], fillOpacity: 1, className: `reader-marker reader-${reader.state}` }}
        >
          <Tooltip>
            Reader {reader.name} ({reader.state === 'silent' ? 'silent' : 'reporting'})
          </Tooltip>
        </CircleMarker>
      ))}
    </>
  );
}
