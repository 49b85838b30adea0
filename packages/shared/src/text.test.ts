import { describe, expect, it } from 'vitest';
import {
  birthDate,
  boundedText,
  hasWords,
  idText,
  int32,
  intText,
  isoDate,
  isoInstant,
  nameText,
  parseTimestamp,
  pastDate,
  reasonText,
  recentTimestamp,
} from './text';

const message = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('boundedText', () => {
  const single = boundedText(10);
  const multi = boundedText(10, { multiline: true });
  it('trims, normalises to NFC and bounds the length', () => {
    expect(single.parse('  e\u0301  ')).toBe('\u00E9');
    expect(message(single.safeParse('x'.repeat(11)))).toBe('must be at most 10 characters');
  });
  it('refuses NUL, C0 and C1 controls and DEL; free text keeps tab and line breaks', () => {
    for (const bad of ['a\u0000', '\u0007', 'a\tb', 'a\nb', '\u007F', '\u0085', '\u009F']) {
      expect(message(single.safeParse(bad)), JSON.stringify(bad)).toBe('must not contain control characters');
    }
    expect(multi.parse('a\r\n\tb')).toBe('a\r\n\tb');
    expect(message(multi.safeParse('a\u0000b'))).toBe('must not contain control characters');
  });
  it('refuses lone surrogates but keeps characters outside the BMP', () => {
    expect(message(single.safeParse('\uD800'))).toBe('must not contain lone surrogate characters');
    expect(message(single.safeParse('a\uDC00'))).toBe('must not contain lone surrogate characters');
    expect(single.parse('\u{1F600}')).toBe('\u{1F600}');
  });
});

describe('nameText', () => {
  const name = nameText(50).min(1, 'name is required');
  it('accepts names of any script', () => {
    for (const ok of ["O'Brien", 'Zoë', 'José-María', '李小龙', 'Ἀθηνᾶ', 'محمد', 'R2D2'])
      expect(name.parse(ok)).toBe(ok.normalize('NFC'));
  });
  it('refuses zero-width, bidi and invisible characters, and names without a letter or digit', () => {
    for (const bad of [
      'A\u200Bb',
      'A\u200Cb',
      'A\u200Db',
      'A\u2060b',
      'A\uFEFFb',
      '\u202Eabc',
      'a\u2066b\u2069',
      'a\u200Fb',
    ]) {
      expect(message(name.safeParse(bad)), JSON.stringify(bad)).toBe(
        'must not contain invisible or text-direction characters',
      );
    }
    expect(message(name.safeParse('...'))).toBe('must contain a letter or a digit');
    expect(message(name.safeParse('  '))).toBe('name is required');
  });
});

describe('numbers', () => {
  it('intText reads plain decimal digits within the range', () => {
    expect(intText().parse('42')).toBe(42);
    expect(intText().parse('2147483647')).toBe(2_147_483_647);
    for (const bad of ['0x33', '1e5', 'Infinity', 'NaN', '', ' ', '1.5', '0b1', '0o7', '3000000000', '0', '-1']) {
      expect(intText().safeParse(bad).success, bad).toBe(false);
    }
    expect(message(intText().safeParse('3000000000'))).toBe('must be at most 2147483647');
    expect(intText(1, 100).safeParse(42).success).toBe(false);
  });
  it('int32 bounds JSON numbers to the integer column', () => {
    expect(int32().parse(7)).toBe(7);
    for (const bad of [0, -1, 1.5, 3_000_000_000, Infinity, Number.NaN])
      expect(int32().safeParse(bad).success, String(bad)).toBe(false);
  });
});

describe('dates and instants', () => {
  it('isoDate: real dates in 1900-2100', () => {
    expect(isoDate.parse('2024-02-29')).toBe('2024-02-29');
    for (const bad of [
      '2026-02-30',
      '2023-02-29',
      '0000-01-01',
      '1899-12-31',
      '2101-01-01',
      '9999-12-31',
      '2026-13-01',
      '26-01-01',
    ]) {
      expect(isoDate.safeParse(bad).success, bad).toBe(false);
    }
  });
  it('pastDate: not after today', () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(pastDate.parse(today)).toBe(today);
    expect(message(pastDate.safeParse(`${new Date().getUTCFullYear() + 1}-01-01`))).toBe('must not be in the future');
  });
  it('birthDate: strictly before today (UTC), "must be in the past"', () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(birthDate.parse('1980-05-17')).toBe('1980-05-17');
    expect(message(birthDate.safeParse(today))).toBe('must be in the past');
    expect(message(birthDate.safeParse(`${new Date().getUTCFullYear() + 1}-01-01`))).toBe('must be in the past');
  });
  it('a missing or null required value "is required", a value of another type is named as such', () => {
    expect(message(boundedText(10).safeParse(undefined))).toBe('is required');
    expect(message(nameText(10).safeParse(null))).toBe('is required');
    expect(message(boundedText(10).safeParse(42))).toBe('must be text');
    expect(message(isoDate.safeParse(undefined))).toBe('is required');
    expect(message(isoDate.safeParse(20260101))).toBe('must be a date as YYYY-MM-DD');
  });
  it('parseTimestamp checks every calendar field instead of rolling over', () => {
    expect(parseTimestamp('2026-01-02 10:30:00')?.toISOString()).toBe('2026-01-02T10:30:00.000Z');
    expect(parseTimestamp('2026-01-02T12:30:00.250+02:00')?.toISOString()).toBe('2026-01-02T10:30:00.250Z');
    for (const bad of [
      '2026-02-30 10:00:00',
      '2026-01-01 24:00:00',
      '2026-01-01 10:60:00',
      '2026-01-01 10:00:00junk',
      'yesterday',
    ]) {
      expect(parseTimestamp(bad), bad).toBeNull();
    }
  });
  it('recentTimestamp: within a day of now', () => {
    const at = (ms: number) => new Date(ms).toISOString();
    expect(recentTimestamp.safeParse(at(Date.now() - 3_600_000)).success).toBe(true);
    expect(message(recentTimestamp.safeParse('9999-12-31 23:59:59'))).toBe('must be within a day of now');
    expect(message(recentTimestamp.safeParse('1970-01-01 00:00:00'))).toBe('must be within a day of now');
    expect(message(recentTimestamp.safeParse('2026-02-30 10:00:00'))).toBe(
      'must be a real timestamp as YYYY-MM-DD HH:MM:SS',
    );
  });
  it('isoInstant: an ISO instant in 1900-2100', () => {
    expect(isoInstant().safeParse('2026-01-01T00:00:00Z').success).toBe(true);
    for (const bad of ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '2026-02-30T00:00:00Z', '2026-01-01']) {
      expect(isoInstant().safeParse(bad).success, bad).toBe(false);
    }
  });
});

describe('issue 20: text direction, ids and reasons (decision 043)', () => {
  it('free text refuses bidi embeddings, overrides and isolates, and keeps right-to-left text and its marks', () => {
    const free = boundedText(100, { multiline: true });
    for (const control of ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069']) {
      expect(message(free.safeParse(`Gate ${control}eno`)), JSON.stringify(control)).toBe(
        'must not contain text-direction override characters',
      );
    }
    for (const ok of ['שער ראשי', 'البوابة \u200F(A)', 'Gate \u200Eone', 'line\nbreak']) expect(free.parse(ok)).toBe(ok);
  });
  it('ids and names refuse every invisible format character (category Cf)', () => {
    for (const schema of [idText(50), nameText(50)]) {
      for (const bad of ['a\u200Bb', 'a\u200Cb', 'a\u200Db', 'a\u200Eb', 'a\u200Fb', 'a\u061Cb', 'a\u2060b', 'a\u2064b', 'a\uFEFFb', 'a\u00ADb', 'a\u{E0041}b']) {
        expect(schema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
      }
    }
    expect(message(idText(50).safeParse('demo-perimeter\u200B'))).toBe('must not contain invisible or text-direction characters');
    expect(idText(50).parse('  demo-perimeter ')).toBe('demo-perimeter');
  });
  it('a reason needs at least ten characters and two words', () => {
    const reason = reasonText(500);
    for (const bad of ['..........', 'xxxxxxxxxxxx', '1234567890 123', '!!!!! ?????', 'a b c d e f g']) {
      expect(reason.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(message(reason.safeParse('too short'))).toBe('must be at least 10 characters');
    expect(message(reason.safeParse('..........'))).toBe('must say why in words (at least two words)');
    for (const ok of ['Medical wing is closed tonight', 'Ordered by governor', '医疗区今晚关闭，请改用二号楼', 'Zelle 4 gesperrt.']) {
      expect(reason.parse(ok)).toBe(ok);
    }
    expect(hasWords('no')).toBe(false);
  });
});
