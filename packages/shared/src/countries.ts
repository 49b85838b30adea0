// Countries from a maintained package (i18n-iso-countries): two-letter code, English name, native name.
// `national_id` holds the English country name (docs/CLIENT-CONTRACT.md).
import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json';

countries.registerLocale(en);

export interface Country {
  code: string;
  name: string;
}

export const COUNTRIES: readonly Country[] = Object.entries(countries.getNames('en', { select: 'official' }))
  .map(([code, name]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

const names = new Set(COUNTRIES.map((c) => c.name));
export function isCountryName(value: string): boolean {
  return names.has(value);
}
