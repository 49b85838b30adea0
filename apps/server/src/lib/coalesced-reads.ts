// One read for the same question asked at the same moment (decision 070). Requests for one key that arrive before
// its read is sent share that read's answer; the read is sent once the event loop has taken in what arrived with the
// first of them (setImmediate: after the current poll phase, where node parses every request that came in at once).
// A request never joins a read already sent: each answer was read after its request arrived, as fresh as a read of its
// own, so nothing is cached and no write needs to invalidate anything. When many screens ask for the same page at
// once (every open list refetches after a change, decision 012's dataChanged), the database runs one statement for
// them, and the server's thread sends and parses one.
export class CoalescedReads<V> {
  private readonly open = new Map<string, Promise<V>>();

  /** The answer of the read for `key` not sent yet, or of a new one that `read` makes after this moment. */
  read(key: string, read: () => Promise<V>): Promise<V> {
    const waiting = this.open.get(key);
    if (waiting) return waiting;
    const answer = new Promise<V>((resolve, reject) => {
      setImmediate(() => {
        // From here on a request for the key waits for a read of its own.
        this.open.delete(key);
        try {
          read().then(resolve, reject);
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    this.open.set(key, answer);
    return answer;
  }

  /** Keys whose read is not sent yet (tests). */
  get waiting(): number {
    return this.open.size;
  }
}
