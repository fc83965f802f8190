/** A pause that `stop` ends early (a closing bus must not wait out a 5 s backoff). */
export class Pauses {
  private readonly waking = new Set<() => void>();
  stopped = false;
  sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waking.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.waking.add(wake);
    });
  }
  stop(): void {
    this.stopped = true;
    for (const wake of [...this.waking]) wake();
  }
}
