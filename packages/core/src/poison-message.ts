/**
 * Thrown by a handler to say "this message can never succeed" (it is not a passing outage): the bus
 * dead-letters it at once with this reason and the partition moves on. Anything else a handler throws
 * is retried until it succeeds.
 */
export class PoisonMessage extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = new.target.name; // subclasses (ForbiddenTransition) keep their own name in logs
  }
}
