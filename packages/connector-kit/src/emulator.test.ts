import { describe, expect, it } from 'vitest';
import { centsOf, FaultPlan, SANDBOX_CUT_CENTS, SANDBOX_SLOW_CENTS } from './emulator';

describe('FaultPlan', () => {
  it('gives each planned fault to exactly n calls, then none', () => {
    const plan = new FaultPlan();
    plan.failNext(2, 503);
    plan.rejectNext(1, 'AM04');
    plan.timeoutAfterAccept(1);
    plan.delayNext(1, 250);
    expect([plan.takeFailure(), plan.takeFailure(), plan.takeFailure()]).toEqual([503, 503, undefined]);
    expect([plan.takeRejection(), plan.takeRejection()]).toEqual(['AM04', undefined]);
    expect([plan.takeCut(), plan.takeCut()]).toEqual([true, false]);
    expect([plan.takeDelay(), plan.takeDelay()]).toEqual([250, undefined]);
  });

  it('keeps a failure for the calls of its scope, and a new plan replaces the pending one', () => {
    const plan = new FaultPlan();
    plan.failNext(1, 500, 'token');
    expect(plan.takeFailure('api')).toBeUndefined();
    plan.failNext(1, 502);
    expect(plan.takeFailure('token')).toBeUndefined();
    expect(plan.takeFailure()).toBe(502);
  });

  it('forgets every pending fault on reset', () => {
    const plan = new FaultPlan();
    plan.failNext(3);
    plan.timeoutAfterAccept(3);
    plan.reset();
    expect(plan.takeFailure()).toBeUndefined();
    expect(plan.takeCut()).toBe(false);
  });
});

describe('sandbox magic amounts', () => {
  it('reads the cents of an amount in cents as the table writes them', () => {
    expect(centsOf(250_081)).toBe('81');
    expect(centsOf(250_003)).toBe('03');
    expect(SANDBOX_CUT_CENTS.has(centsOf(100_082))).toBe(true);
    expect(centsOf(1_083)).toBe(SANDBOX_SLOW_CENTS);
  });
});
