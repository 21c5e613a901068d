import { describe, expect, it } from 'vitest';
import { startingLanguage } from './language';

describe('the language a page opens in', () => {
  it('is English when nothing says otherwise', () => {
    expect(startingLanguage('', null, [])).toBe('en');
    expect(startingLanguage('', null, ['fr-FR', 'de'])).toBe('en');
  });

  it('is the first of the browser’s languages that we speak', () => {
    expect(startingLanguage('', null, ['sw-KE', 'en-GB'])).toBe('sw');
    expect(startingLanguage('', null, ['fr', 'sw'])).toBe('sw');
    expect(startingLanguage('', null, ['en-US', 'sw-KE'])).toBe('en');
    expect(startingLanguage('', null, ['SW_tz'])).toBe('sw');
  });

  it('is the remembered choice before the browser’s languages', () => {
    expect(startingLanguage('', 'en', ['sw-KE'])).toBe('en');
    expect(startingLanguage('', 'sw', ['en-GB'])).toBe('sw');
    // A remembered value that is not a language of ours is ignored.
    expect(startingLanguage('', 'klingon', ['sw-KE'])).toBe('sw');
  });

  it('is the address’s ?lang= before anything else, when it names one of ours', () => {
    expect(startingLanguage('?lang=sw', 'en', ['en-GB'])).toBe('sw');
    expect(startingLanguage('?x=1&lang=en', 'sw', ['sw-KE'])).toBe('en');
    expect(startingLanguage('?lang=fr', 'sw', ['en-GB'])).toBe('sw');
    expect(startingLanguage(`?lang=${'s'.repeat(5000)}`, null, [])).toBe('en');
  });
});
