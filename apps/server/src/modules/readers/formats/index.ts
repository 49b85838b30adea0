// Every reader message format, by the name a reader is registered with.
import type { ReaderFormat } from '@prison/shared';
import { minewFormat } from './minew-format';
import { openMqttGatewayFormat } from './openmqttgateway-format';
import { prisonFormat } from './prison-format';
import type { SightingDecoder } from './sighting-decoder';

export const SIGHTING_DECODERS: Record<ReaderFormat, SightingDecoder> = {
  prison: prisonFormat,
  openmqttgateway: openMqttGatewayFormat,
  minew: minewFormat,
};

export type { SightingDecoder } from './sighting-decoder';
