import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv';

describe('csvCell (OWASP CSV injection)', () => {
  it('puts a quote before text that starts with = + - @ tab or carriage return', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      const cell = csvCell(`${start}1+1`);
      expect(cell.replace(/^"/, ''), JSON.stringify(start)).toMatch(/^'/);
    }
    expect(csvCell('-2-3')).toBe("'-2-3");
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
  });
  it('leaves other text and numbers as they are, negative numbers included', () => {
    expect(csvCell('dev-1')).toBe('dev-1');
    expect(csvCell(-0.12)).toBe('-0.12');
    expect(csvCell(null)).toBe('');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvLine(['a,b', 1, null, '-x'])).toBe(`"a,b",1,,'-x`);
  });
});
