import { describe, expect, it } from 'vitest';
import { OwnerTurns } from './owner-turns.ts';

describe('OwnerTurns', () => {
  it('gives each owner with work waiting a turn, in the order the owners came', () => {
    const turns = new OwnerTurns<string>();
    for (const item of ['a1', 'a2', 'a3']) turns.push('a', item);
    turns.push('b', 'b1');
    turns.push('', 'x1');
    turns.push('b', 'b2');
    expect(turns.length).toBe(6);
    expect(turns.peek()).toBe('a1');
    const taken: string[] = [];
    while (turns.length > 0) taken.push(turns.shift() as string);
    expect(taken).toEqual(['a1', 'b1', 'x1', 'a2', 'b2', 'a3']);
    expect(turns.shift()).toBeUndefined();
    expect(turns.peek()).toBeUndefined();
  });

  it('lets an owner who had nothing waiting go before the owners served since', () => {
    const turns = new OwnerTurns<string>();
    for (const item of ['a1', 'a2', 'a3']) turns.push('a', item);
    turns.push('b', 'b1');
    expect([turns.shift(), turns.shift()]).toEqual(['a1', 'b1']);
    // c and b, whose work had all been taken, come with one unit each, and go first, in the
    // order they came; then a has its turns again.
    turns.push('c', 'c1');
    turns.push('b', 'b2');
    expect([turns.shift(), turns.shift(), turns.shift(), turns.shift()]).toEqual([
      'c1',
      'b2',
      'a2',
      'a3',
    ]);
  });

  it('takes out the work that passes a test and leaves the rest in its turns', () => {
    const turns = new OwnerTurns<string>();
    for (const item of ['a1', 'a2']) turns.push('a', item);
    for (const item of ['b1', 'b2']) turns.push('b', item);
    turns.push('c', 'c1');
    const taken = turns.takeWhere((item) => item.endsWith('1'));
    expect(taken.sort()).toEqual(['a1', 'b1', 'c1']);
    expect(turns.length).toBe(2);
    expect([turns.shift(), turns.shift(), turns.shift()]).toEqual(['a2', 'b2', undefined]);
  });
});
