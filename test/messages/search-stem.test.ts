// The search stemmer: the word forms a search must treat as one word.
import { describe, expect, it } from 'vitest';
import { stem } from '../../src/domain/messages/search.js';

describe('stem', () => {
  it.each([
    ['test', 'tests', 'testing', 'tested'],
    ['lighthouse', 'lighthouses'],
    ['release', 'releases', 'released'],
    ['box', 'boxes'],
    ['church', 'churches'],
    ['party', 'parties'],
    ['shine', 'shining'],
  ])('%s and its forms share a stem', (...forms) => {
    expect(new Set(forms.map(stem)).size).toBe(1);
  });

  it('keeps short words and different words apart', () => {
    expect(stem('is')).toBe('is');
    expect(stem('code')).toBe('code');
    expect(stem('boxes')).not.toBe(stem('bosses'));
    expect(stem('Lighthouse')).toBe(stem('lighthouse'));
  });
});
