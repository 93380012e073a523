import { describe, expect, it } from 'vitest';
import { readChange } from './live-updates.ts';

describe('readChange', () => {
  it('reads a change, including an action this page does not know', () => {
    expect(readChange('{"id":7,"action":"edited","clientId":"c1"}')).toEqual({
      id: 7,
      action: 'edited',
      clientId: 'c1',
    });
    expect(readChange('{"id":8,"action":"merged","clientId":null,"extra":1}')).toEqual({
      id: 8,
      action: 'merged',
      clientId: null,
    });
  });

  it('gives null for data it cannot read, so the page fetches everything', () => {
    for (const data of [
      'not json',
      'null',
      '[]',
      '{"action":"edited","clientId":null}',
      '{"id":"7","action":"edited","clientId":null}',
      '{"id":7,"clientId":null}',
      '{"id":7,"action":"edited"}',
      '{"id":7,"action":"edited","clientId":5}',
    ]) {
      expect(readChange(data), data).toBeNull();
    }
  });
});
