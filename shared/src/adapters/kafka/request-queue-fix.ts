/**
 * kafkajs 2.2.4 (pinned in shared/package.json) re-arms a "check pending requests" timer after every
 * check, and with nothing pending the delay it computes is negative, so every broker connection of
 * every producer, consumer and admin runs a 1 ms timer loop for as long as it is open
 * (tulios/kafkajs#1556, #1704; the fix proposed in #1667 is unreleased). Measured here: one idle
 * consumer cost 3–5 % of a core, 1,700 event-loop wakeups a second; the stack's nine services idled
 * at 25 % of a core together. A check is only needed while requests wait (throttled, or over the
 * in-flight limit): `push` schedules one when it queues a request, and a fulfilled request checks the
 * queue itself. So with nothing pending, nothing is scheduled.
 */
// kafkajs does not export its request queue; the path is stable within the pinned version.
const RequestQueue = require('kafkajs/src/network/requestQueue') as {
  prototype: { pending: unknown[]; scheduleCheckPendingRequests(): void };
};

const original = RequestQueue.prototype.scheduleCheckPendingRequests;
if (!(original as { idleFix?: boolean }).idleFix) {
  const patched = function (this: { pending: unknown[] }) {
    if (this.pending.length === 0) return;
    original.call(this);
  };
  (patched as { idleFix?: boolean }).idleFix = true;
  RequestQueue.prototype.scheduleCheckPendingRequests = patched;
}

export { RequestQueue };
