import { describe, expect, it } from 'vitest';
import { CoalescedReads } from './coalesced-reads';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('CoalescedReads', () => {
  it('answers requests for one key made at the same moment with one read', async () => {
    const reads = new CoalescedReads<number>();
    let made = 0;
    const read = async () => ++made;
    const answers = await Promise.all([reads.read('a', read), reads.read('a', read), reads.read('a', read)]);
    expect(answers).toEqual([1, 1, 1]);
    expect(made).toBe(1);
  });

  it('gives other keys reads of their own', async () => {
    const reads = new CoalescedReads<string>();
    const made: string[] = [];
    const read = (key: string) => async () => {
      made.push(key);
      return key;
    };
    expect(await Promise.all([reads.read('a', read('a')), reads.read('b', read('b'))])).toEqual(['a', 'b']);
    expect(made.sort()).toEqual(['a', 'b']);
  });

  it('never lets a request join a read that was sent before it arrived', async () => {
    const reads = new CoalescedReads<string>();
    let state = 'before';
    let finish!: () => void;
    const slow = () =>
      new Promise<string>((resolve) => {
        const seen = state; // what the database would answer: the state when the statement runs
        finish = () => resolve(seen);
      });
    const first = reads.read('page', slow);
    await nextTurn(); // the first read is sent now
    expect(reads.waiting).toBe(0);
    state = 'after'; // a write commits, then another request arrives while the first read is still running
    const second = reads.read('page', slow);
    const finishFirst = finish;
    await nextTurn();
    const finishSecond = finish;
    finishFirst();
    finishSecond();
    expect(await first).toBe('before');
    expect(await second).toBe('after');
  });

  it('hands a failed read to every request that shared it, and the next request reads again', async () => {
    const reads = new CoalescedReads<number>();
    const failing = () => Promise.reject(new Error('database unreachable'));
    const results = await Promise.allSettled([reads.read('a', failing), reads.read('a', failing)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await reads.read('a', async () => 7)).toBe(7);
  });

  it('turns a read that throws at once into a refusal of its requests', async () => {
    const reads = new CoalescedReads<number>();
    const throwing = (): Promise<number> => {
      throw new Error('bad statement');
    };
    await expect(reads.read('a', throwing)).rejects.toThrow('bad statement');
    expect(reads.waiting).toBe(0);
  });
});
