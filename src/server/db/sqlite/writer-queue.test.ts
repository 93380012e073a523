import { describe, expect, it } from 'vitest';
import { WriterQueue } from './writer-queue.ts';

const shiftAll = <T>(turns: WriterQueue<T>): T[] => {
  const taken: T[] = [];
  while (turns.length > 0) taken.push(turns.shift() as T);
  return taken;
};

describe('WriterQueue', () => {
  it('gives each owner with work waiting a turn, in the order the owners came', () => {
    const turns = new WriterQueue<string>();
    for (const item of ['a1', 'a2', 'a3']) turns.push('a', item);
    turns.push('b', 'b1');
    turns.push('', 'x1');
    turns.push('b', 'b2');
    expect(turns.length).toBe(6);
    expect(turns.peek()).toBe('a1');
    expect(shiftAll(turns)).toEqual(['a1', 'b1', 'x1', 'a2', 'b2', 'a3']);
    expect(turns.shift()).toBeUndefined();
    expect(turns.peek()).toBeUndefined();
  });

  it('serves the owner served least recently, whenever its work came', () => {
    const turns = new WriterQueue<string>();
    for (const item of ['a1', 'a2', 'a3']) turns.push('a', item);
    turns.push('b', 'b1');
    expect([turns.shift(), turns.shift()]).toEqual(['a1', 'b1']);
    // b's work had all been taken; c was never served. a was served before b.
    turns.push('b', 'b2');
    turns.push('c', 'c1');
    expect(shiftAll(turns)).toEqual(['c1', 'a2', 'b2', 'a3']);
  });

  it('never leaves an owner with work waiting behind owners that keep coming back', () => {
    const turns = new WriterQueue<string>();
    for (const item of ['a1', 'a2', 'a3']) turns.push('a', item);
    // Ten owners, each with one unit at a time, sending its next as soon as one is taken.
    for (let owner = 0; owner < 10; owner++) turns.push(`o${owner}`, `o${owner}`);
    const taken: string[] = [];
    for (let i = 0; i < 33; i++) {
      const item = turns.shift() as string;
      taken.push(item);
      if (item.startsWith('o')) turns.push(item, item);
    }
    expect(taken.filter((item) => item.startsWith('a'))).toEqual(['a1', 'a2', 'a3']);
  });

  it('forgets the owners served longest ago first, and they stay the oldest', () => {
    const turns = new WriterQueue<string>(2);
    for (const owner of ['a', 'b', 'c']) turns.push(owner, `${owner}1`);
    expect(shiftAll(turns)).toEqual(['a1', 'b1', 'c1']);
    // a is forgotten: as far as the turns know, never served, like d; it came before d.
    for (const owner of ['a', 'c', 'b', 'd']) turns.push(owner, `${owner}2`);
    expect(shiftAll(turns)).toEqual(['a2', 'd2', 'b2', 'c2']);
  });

  it('takes turns among thousands of owners in the order they were last served', () => {
    const turns = new WriterQueue<number>();
    const owners = 3000;
    // Each owner is served once, in a shuffled order; then all come back at once.
    const order = Array.from({ length: owners }, (_, i) => (i * 7919) % owners);
    for (const owner of order) turns.push(`o${owner}`, owner);
    expect(shiftAll(turns)).toEqual(order);
    for (let owner = 0; owner < owners; owner++) turns.push(`o${owner}`, owner);
    const again = shiftAll(turns);
    // The owners the turns still remember (the last 1,024 served) come after the forgotten,
    // who go in the order they came back.
    const remembered = new Set(order.slice(-1024));
    const forgotten = [...Array(owners).keys()].filter((owner) => !remembered.has(owner));
    expect(again).toEqual([...forgotten, ...order.slice(-1024)]);
  });

  it('takes out the work that passes a test and leaves the rest in its turns', () => {
    const turns = new WriterQueue<string>();
    for (const item of ['a1', 'a2']) turns.push('a', item);
    for (const item of ['b1', 'b2']) turns.push('b', item);
    turns.push('c', 'c1');
    const taken = turns.takeWhere((item) => item.endsWith('1'));
    expect(taken.sort()).toEqual(['a1', 'b1', 'c1']);
    expect(turns.length).toBe(2);
    expect([turns.shift(), turns.shift(), turns.shift()]).toEqual(['a2', 'b2', undefined]);
  });
});
