// The blocks' areas: a grey outline each, labelled with the block's name. Not clickable, so the
// geofences and markers under them keep their clicks.
import { Polygon, Tooltip } from 'react-leaflet';
import type { BlockArea } from '@prison/shared/roll-count';

export const BLOCK_AREA_COLOR = '#334155';

export function BlockAreaLayer({ areas }: { areas: BlockArea[] }) {
  return (
    <>
      {areas.map((area) => (
        <Polygon
          key={`${area.block}:${area.updated_at}`}
          positions={area.points}
          className="block-area-shape"
          interactive={false}
          pathOptions={{ color: BLOCK_AREA_COLOR, weight: 2, dashArray: '1 5', fillOpacity: 0.05 }}
        >
          <Tooltip permanent direction="center" className="block-area-label">
            Block {area.block}
          </Tooltip>
        </Polygon>
      ))}
    </>
  );
}
