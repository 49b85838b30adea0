// A child process's output line by line, for npm test (a failed step's tail), the end-to-end shards (prefixed lines)
// and npm run cluster (prefixed lines, the reason a process stopped). Each stream keeps its own unfinished line.

/**
 * Calls `onLine` for each line of `stream`, without its newline. A line cut between two chunks is one line; the text
 * after the last newline comes at the end.
 */
export function eachLine(stream, onLine) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  stream.on('end', () => {
    if (rest) onLine(rest);
  });
}
