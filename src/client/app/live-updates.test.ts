import { describe, expect, it } from 'vitest';
import { readChange, readChanges } from './live-updates.ts';

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

describe('readChanges', () => {
  it('reads several changes sent as one', () => {
    expect(
      readChanges('{"id":12,"count":3,"deleted":["c1"],"settingsChanged":false,"extra":1}'),
    ).toEqual({ id: 12, count: 3, deleted: ['c1'], settingsChanged: false });
  });

  it('gives null for data it cannot read, so the page fetches everything', () => {
    for (const data of [
      'not json',
      'null',
      '{"count":3,"deleted":[],"settingsChanged":false}',
      '{"id":12,"deleted":[],"settingsChanged":false}',
      '{"id":12,"count":3,"settingsChanged":false}',
      '{"id":12,"count":3,"deleted":"c1","settingsChanged":false}',
      '{"id":12,"count":3,"deleted":[7],"settingsChanged":false}',
      '{"id":12,"count":3,"deleted":[]}',
      '{"id":12,"count":3,"deleted":[],"settingsChanged":"no"}',
    ]) {
      expect(readChanges(data), data).toBeNull();
    }
  });
});
