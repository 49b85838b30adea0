// Each reader message format read from messages shaped as its vendor publishes them: the same sightings from each,
// the reader id from the topic, and a message of another shape refused whole.
import { describe, expect, it } from 'vitest';
import { SIGHTING_DECODERS } from '.';
import { tagIdOf } from './sighting-decoder';

describe('reader message formats', () => {
  it('writes every BLE address as AA:BB:CC:DD:EE:FF, other ids as sent', () => {
    expect(['aabbccddeeff', 'AA-BB-CC-DD-EE-FF', 'aa:bb:cc:dd:ee:ff'].map(tagIdOf)).toEqual(Array(3).fill('AA:BB:CC:DD:EE:FF'));
    expect(tagIdOf('TAG-7')).toBe('TAG-7');
  });

  it('reads OpenMQTTGateway / Theengs: one object per tag, the gateway name in the topic', () => {
    const omg = SIGHTING_DECODERS.openmqttgateway;
    expect(omg.readerOf('home/wing-a-gw/BTtoMQTT/C7FAE9D4A2B1')).toBe('wing-a-gw');
    expect(omg.readerOf('home/wing-a-gw/SYStoMQTT')).toBeNull();
    expect(omg.decode({ id: 'c7:fa:e9:d4:a2:b1', mac_type: 1, rssi: -67, txpower: -59, name: 'tag' })).toEqual({ tags: [{ id: 'C7:FA:E9:D4:A2:B1', rssi: -67 }] });
    expect(omg.decode({ id: 'C7:FA:E9:D4:A2:B1' })).toBeNull();
    expect(omg.decode([{ id: 'A', rssi: -1 }, { id: 'B', rssi: 'x' }])).toBeNull();
  });

  it('reads a Minew array: the gateway entry skipped, each tag with its own timestamp', () => {
    const minew = SIGHTING_DECODERS.minew;
    expect(minew.readerOf('/gw/ac233fc07da5/status')).toBe('ac233fc07da5');
    const upload = [
      { timestamp: '2026-12-08T01:00:00.000Z', type: 'Gateway', mac: 'AC233FC07DA5', gatewayFree: 42, gatewayLoad: 1.15 },
      { timestamp: '2026-12-08T01:00:01.250Z', type: 'iBeacon', mac: '0BE383050DE8', bleName: '', ibeaconUuid: '6A08635B25F7410A8CF860EEFA2E6EAB', ibeaconMajor: 1000, ibeaconMinor: 1500, rssi: -58, ibeaconTxPower: -70, battery: 0 },
      { timestamp: '2026-12-08T01:00:01.500Z', type: 'Unknown', mac: 'C7FAE9D4A2B1', bleName: '', rssi: -80, rawData: '0201061AFF4C000215' },
    ];
    expect(minew.decode(upload)).toEqual({
      tags: [
        { id: '0B:E3:83:05:0D:E8', rssi: -58, at: '2026-12-08T01:00:01.250Z' },
        { id: 'C7:FA:E9:D4:A2:B1', rssi: -80, at: '2026-12-08T01:00:01.500Z' },
      ],
    });
    expect(minew.decode(upload[1])).toBeNull();
    expect(minew.decode(Array.from({ length: 101 }, () => upload[1]))).toBeNull();
  });

  it('reads ours with its secret', () => {
    const ours = SIGHTING_DECODERS.prison;
    expect(ours.readerOf('prison/readers/R1/sightings')).toBe('R1');
    expect(ours.decode({ secret: 's', tags: [{ id: 'T', rssi: -50 }] })).toEqual({ secret: 's', tags: [{ id: 'T', rssi: -50 }] });
    expect(ours.decode({ tags: [] })).toBeNull();
  });
});
