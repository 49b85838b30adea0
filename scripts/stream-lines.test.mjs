import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { eachLine } from './stream-lines.mjs';

describe('eachLine', () => {
  it('joins a line cut between chunks, a character cut between its bytes included, and gives the unfinished last line at the end', async () => {
    const stream = new PassThrough();
    const lines = [];
    eachLine(stream, (line) => lines.push(line));
    const cell = Buffer.from('cell B-4 → yard\n');
    stream.write('first li');
    stream.write('ne\nsecond\n');
    stream.write(cell.subarray(0, 10)); // inside the three bytes of "→"
    stream.write(cell.subarray(10));
    stream.end('no newline');
    await finished(stream);
    expect(lines).toEqual(['first line', 'second', 'cell B-4 → yard', 'no newline']);
  });
});
