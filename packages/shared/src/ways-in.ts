// Every way a position reaches the server, as the readers screen and the docs list it: its address, how the sender
// is authenticated, and a short example. The metrics name is the `protocol` label of its /metrics series.
import { API_PREFIX } from './constants';
import { READER_FORMAT_TOPICS } from './reader';

export interface WayIn {
  name: string;
  /** The `protocol` label of prison_fixes_received_total, _refused_total and _stored_by_protocol_total. */
  metrics: string;
  address: string;
  authentication: string;
  example: string;
}

export const WAYS_IN: readonly WayIn[] = [
  { name: 'OsmAnd (phones, Traccar Client)', metrics: 'osmand', address: `GET/POST ${API_PREFIX}/ingest/osmand, or OSMAND_PORT`, authentication: 'device id, and its secret when required', example: '?id=PHONE-1&secret=...&lat=51.5&lon=-0.12&timestamp=1700000000' },
  { name: 'Socket.IO device protocol', metrics: 'socketio', address: 'Socket.IO on the server address', authentication: 'device id and secret in the handshake', example: "emit('updateLocation', { trackingId, latitude, longitude, timestamp })" },
  { name: 'Gateway batch', metrics: 'batch', address: `POST ${API_PREFIX}/ingest/positions`, authentication: 'each position its device id and secret', example: '{ "positions": [{ "device_id", "secret", "latitude", "longitude", "timestamp" }] }' },
  { name: 'Traccar server forwarder', metrics: 'traccar', address: `POST ${API_PREFIX}/ingest/traccar`, authentication: 'Authorization: Bearer TRACCAR_FORWARD_TOKEN', example: '{ "position": {...}, "device": { "uniqueId": "PHONE-1" } }' },
  { name: 'Reader, our JSON, HTTP', metrics: 'reader', address: `POST ${API_PREFIX}/ingest/sightings`, authentication: "the reader's secret in the message", example: '{ "reader_id": "R1", "secret": "...", "tags": [{ "id": "TAG-1", "rssi": -60 }] }' },
  { name: 'Reader, our JSON, MQTT', metrics: 'mqtt', address: `MQTT_URL topic ${READER_FORMAT_TOPICS.prison}`, authentication: "the reader's secret in the message", example: '{ "secret": "...", "tags": [{ "id": "TAG-1", "rssi": -60 }] }' },
  { name: 'OpenMQTTGateway / Theengs, MQTT', metrics: 'openmqttgateway_mqtt', address: `MQTT_URL topic ${READER_FORMAT_TOPICS.openmqttgateway} (gateway name = reader id)`, authentication: "the broker's (user and topic rights); reader registered in this format", example: 'home/R1/BTtoMQTT/C7FAE9D4A2B1 { "id": "C7:FA:E9:D4:A2:B1", "rssi": -67 }' },
  { name: 'OpenMQTTGateway / Theengs, HTTP', metrics: 'openmqttgateway_http', address: `POST ${API_PREFIX}/ingest/readers/{reader_id}/sightings`, authentication: "Authorization: Bearer (or Basic password) the reader's secret", example: '[{ "id": "C7:FA:E9:D4:A2:B1", "rssi": -67 }]' },
  { name: 'Minew G1 / MG3, MQTT', metrics: 'minew_mqtt', address: `MQTT_URL topic ${READER_FORMAT_TOPICS.minew} (gateway MAC = reader id)`, authentication: "the broker's (user and topic rights); reader registered in this format", example: '[{ "timestamp": "...", "type": "iBeacon", "mac": "0BE383050DE8", "rssi": -58 }]' },
  { name: 'Minew G1 / MG3, HTTP', metrics: 'minew_http', address: `POST ${API_PREFIX}/ingest/readers/{reader_id}/sightings`, authentication: "Authorization: Basic (any user, the reader's secret as password) or Bearer", example: 'the same array' },
  { name: 'RTLS (Pozyx), MQTT', metrics: 'rtls', address: 'MQTT_URL topic RTLS_TOPIC (tags)', authentication: "the broker's (user and topic rights)", example: '[{ "tagId": "30331", "timestamp": 1700000000.1, "success": true, "data": { "coordinates": { "x": 12500, "y": 30000, "z": 1200 } } }]' },
];
