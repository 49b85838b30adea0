// How many things each key (an account) has running at once in this process, against a maximum: a slot is taken
// when one starts and given back when it ends, whatever its outcome.
export class RunningPerKey {
  private readonly running = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Takes a slot of `key` and answers true, or answers false (taking nothing) when all its slots are in use. */
  take(key: string): boolean {
    const now = this.running.get(key) ?? 0;
    if (now >= this.max) return false;
    this.running.set(key, now + 1);
    return true;
  }

  /** Gives back a slot taken by take(). */
  give(key: string): void {
    const now = this.running.get(key) ?? 0;
    if (now <= 1) this.running.delete(key);
    else this.running.set(key, now - 1);
  }

  /** The slots of `key` in use now. */
  count(key: string): number {
    return this.running.get(key) ?? 0;
  }
}
