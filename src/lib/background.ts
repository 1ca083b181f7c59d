/**
 * Work a request starts but does not wait for (e.g. mail that must not make an answer slower for
 * members than for strangers). Each task starts on a later turn of the event loop; a failure is
 * logged, never thrown at the request. `idle()` resolves once nothing is running: tests await it, and
 * the server awaits it on close so no task is cut off.
 */
export class Background {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly onError: (err: unknown, name: string) => void) {}

  run(name: string, task: () => Promise<void>): void {
    const p: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((err) => this.onError(err, name))
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
