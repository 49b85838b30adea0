// The OsmAnd port's query parsing (decision 049) reads every URL as the WHATWG URL parser it replaced.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { queryParameters } from './osmand-port';

const byWhatwgUrl = (url: string) => Object.fromEntries(new URL(url, 'http://device').searchParams);

describe('OsmAnd port query parameters', () => {
  it('reads the parameters Traccar Client sends', () => {
    const url = '/?id=bench-12&lat=51.512345&lon=-0.123456&timestamp=1795500000000&batt=80&secret=a%2Bb+c';
    expect({ ...queryParameters(url) }).toEqual({
      id: 'bench-12',
      lat: '51.512345',
      lon: '-0.123456',
      timestamp: '1795500000000',
      batt: '80',
      secret: 'a+b c',
    });
  });

  it.each([
    '/',
    '/?',
    '/path/x?id=1&id=2',
    '/?id=a&&=b&c&d=',
    '/?id=%zz&lat=%C3&lon=%C3%A9%zz',
    '/?__proto__=x&constructor=y&toString=z',
    '/?id=1#lat=2',
    '/?a=b=c&%3D=%26',
    'http://other.example/p?id=7',
  ])('reads %s as the URL parser does', (url) => {
    expect({ ...queryParameters(url) }).toEqual(byWhatwgUrl(url));
  });

  // Node's HTTP parser answers 400 to a request target with anything but visible ASCII (spaces, controls and
  // non-ASCII bytes included), so those are all a request's URL can hold.
  it('agrees with the URL parser on generated query strings, malformed escapes included', () => {
    const visibleAscii = fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code));
    const piece = fc.oneof(
      fc.constantFrom('id', 'lat', 'secret', '=', '&', '+', '%', '%2', '%25', '%3D', '%26', '%C3', '%A9', '%zz', '%00', '%0A', '%20', '#', '?', '__proto__'),
      fc.array(visibleAscii, { maxLength: 4 }).map((chars) => chars.join('')),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (pieces) => {
        const url = `/?${pieces.join('')}`;
        expect({ ...queryParameters(url) }).toEqual(byWhatwgUrl(url));
      }),
      { numRuns: 2000 },
    );
  });
});
