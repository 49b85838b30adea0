// Fixed indoor readers (RFID, BLE or UWB gateways): registration, the list, and the sightings they send
// over MQTT or HTTP (decision 067).
import { z } from 'zod';
import { idText, nameText } from './text';

/** At most this many tags in one message: a bigger one is refused whole. */
export const MAX_SIGHTING_TAGS = 100;
/** The largest MQTT sightings payload read; a bigger one is refused unread. */
export const MAX_SIGHTING_PAYLOAD_BYTES = 65_536;
/** Sightings of one tag by different readers within this window: the strongest signal wins (decision 067). */
export const SIGHTING_WINDOW_MS = 2_000;
/** The MQTT topic a reader publishes on; `+` stands for its id. */
export const READER_TOPIC_PATTERN = 'prison/readers/+/sightings';

/**
 * The message format a reader publishes in, chosen when it is registered: ours (`prison`, its secret in each message),
 * OpenMQTTGateway / Theengs Gateway (one JSON object per tag) or a Minew G1 / MG3 gateway (a JSON array per scan).
 */
export const READER_FORMATS = ['prison', 'openmqttgateway', 'minew'] as const;
export type ReaderFormat = (typeof READER_FORMATS)[number];
export const READER_FORMAT_LABELS: Record<ReaderFormat, string> = {
  prison: 'Our JSON (secret in each message)',
  openmqttgateway: 'OpenMQTTGateway / Theengs Gateway',
  minew: 'Minew G1 / MG3 gateway',
};
/**
 * The MQTT topic filter each format's gateways publish on; the reader id is the level a `+` marks first (the gateway
 * name of OpenMQTTGateway, the gateway MAC of a Minew, as configured on the gateway).
 */
export const READER_FORMAT_TOPICS: Record<ReaderFormat, string> = {
  prison: READER_TOPIC_PATTERN,
  openmqttgateway: '+/+/BTtoMQTT/+',
  minew: '/gw/+/status',
};

const readerId = idText(100)
  .min(1, 'id is required')
  .regex(/^[\w.:-]+$/, 'id may hold letters, digits, . : - and _ only');

export const readerInput = z.object({
  id: readerId,
  name: nameText(100).min(1, 'name is required'),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  /** How far from the reader a tag it sees may be: the accuracy of the fix it makes. */
  radius_m: z.number().min(0.5).max(1000),
  block_id: nameText(100).min(1).nullable().optional(),
  cell_id: idText(50).min(1).nullable().optional(),
  /** How its messages are read; ours when not given. */
  format: z.enum(READER_FORMATS, { message: `format must be one of ${READER_FORMATS.join(', ')}` }).optional(),
});
export type ReaderInput = z.infer<typeof readerInput>;

export const reader = z.object({
  id: z.string(),
  name: z.string(),
  lat: z.number(),
  lng: z.number(),
  radius_m: z.number(),
  block_id: z.string().nullable(),
  cell_id: z.string().nullable(),
  format: z.enum(READER_FORMATS),
  /** reporting: heard within READER_SILENT_SECONDS; silent: not (grey on the map); the alert is raised once. */
  state: z.enum(['reporting', 'silent']),
  last_seen_at: z.string().nullable(),
  /** Messages refused for this reader's id (wrong secret, malformed) since it was registered. */
  refused_count: z.number().int(),
  created_at: z.string(),
});
export type Reader = z.infer<typeof reader>;
export const readerList = z.object({ data: z.array(reader) });
/** Registration answers the secret once; only its hash is stored (as for devices, decision 038). */
export const readerCreated = reader.extend({ secret: z.string() });
export type ReaderCreated = z.infer<typeof readerCreated>;

/** One tag a reader saw: the tag id is a registered tracker's id (decision 067); `at` ISO 8601, seconds or ms. */
export const sightingTag = z.object({
  id: z.string().min(1).max(100),
  rssi: z.number().min(-200).max(50),
  at: z.union([z.string().max(40), z.number()]).optional(),
});
export type SightingTag = z.infer<typeof sightingTag>;

/** The MQTT payload on prison/readers/{reader_id}/sightings; an empty list of tags is the reader's heartbeat. */
export const mqttSightings = z.object({
  secret: z.string().min(1).max(200),
  tags: z.array(sightingTag).max(MAX_SIGHTING_TAGS),
});

/** POST /ingest/sightings. */
export const httpSightings = mqttSightings.extend({ reader_id: readerId });
export type HttpSightings = z.infer<typeof httpSightings>;

export const sightingsResult = z.object({
  /** Fixes stored from this message. */
  stored: z.number().int(),
  /** Tags already stored at that instant, unknown tags, or weaker than another reader's sighting within 2 s. */
  ignored: z.number().int(),
});
export type SightingsResult = z.infer<typeof sightingsResult>;
