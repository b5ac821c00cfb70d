/**
 * The recent attempts at one endpoint, oldest first, with the count of failures among them kept as
 * they come and go: the circuit breaker asks for the ratio after every attempt, and counting a
 * thousand entries (and shifting them down to drop the oldest) each time showed in profiles of
 * busy endpoints. Dropped entries are skipped by an index and compacted now and then.
 */
export class AttemptWindow {
  readonly #endedAt: number[] = [];
  readonly #failed: boolean[] = [];
  #first = 0;
  #failures = 0;
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#endedAt.length - this.#first;
  }

  get failures(): number {
    return this.#failures;
  }

  /** Adds an attempt that ended at `at`; past the capacity the oldest is dropped. */
  push(at: number, failed: boolean): void {
    this.#endedAt.push(at);
    this.#failed.push(failed);
    if (failed) this.#failures++;
    while (this.size > this.#capacity) this.#dropOldest();
  }

  /** Drops the attempts that ended before `since`. */
  dropBefore(since: number): void {
    while (this.size > 0 && this.#endedAt[this.#first]! < since) this.#dropOldest();
  }

  clear(): void {
    this.#endedAt.length = 0;
    this.#failed.length = 0;
    this.#first = 0;
    this.#failures = 0;
  }

  #dropOldest(): void {
    if (this.#failed[this.#first]!) this.#failures--;
    this.#first++;
    // Compacted once the dropped part is as long as the live part: amortised O(1) per attempt.
    if (this.#first >= 1_024 && this.#first * 2 >= this.#endedAt.length) {
      this.#endedAt.splice(0, this.#first);
      this.#failed.splice(0, this.#first);
      this.#first = 0;
    }
  }
}
