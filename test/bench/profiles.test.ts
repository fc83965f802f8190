import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module of the bench, without types
import { summariseProfile } from './profiles.mjs';

describe('bench profile summary', () => {
  it('ranks busy time by module and function, leaving idle samples out', () => {
    const frame = (id: number, functionName: string, url: string) => ({
      id,
      callFrame: { functionName, url, lineNumber: 9, columnNumber: 0, scriptId: '1' },
    });
    const profile = {
      nodes: [
        frame(1, '(idle)', ''),
        frame(2, 'serializeInto', 'file:///app/node_modules/bson/lib/bson.cjs'),
        frame(3, 'handle', 'file:///app/services/router/dist/actor.js'),
      ],
      samples: [1, 2, 2, 2, 3],
      timeDeltas: [900_000, 30_000, 30_000, 30_000, 10_000],
    };
    const s = summariseProfile(profile, 5);
    expect(s.busy_ms).toBe(100);
    expect(s.by_module).toEqual([
      { name: 'bson', percent: 90 },
      { name: 'services/router', percent: 10 },
    ]);
    expect(s.by_function[0]).toEqual({ name: 'serializeInto bson:10', percent: 90 });
  });
});
