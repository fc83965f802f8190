import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, readSettings, setting, settings } from '@switch/platform/config/env';
// @ts-expect-error a plain ES module (the npm script runs it with node), without types
import { DOC, PROCESSES, withReference } from './reference.mjs';

describe('the configuration reference', () => {
  it('docs/configuration.md is the one the declared settings write (run `npm run docs:config` after changing one)', () => {
    const text = readFileSync(DOC, 'utf8');
    expect(withReference(text)).toBe(text);
  });

  it('lists every variable each process declares', () => {
    const text = readFileSync(DOC, 'utf8');
    for (const p of PROCESSES as { name: string }[]) expect(text).toContain(`### ${p.name}`);
    for (const variable of ['SWITCH_KAFKA_PARTITIONS', 'SWITCH_KAFKA_NAMESPACE', 'PLAZA_TEST_URL', 'BNC_LIVE_MASTER_KEY', 'SWITCH_URL'])
      expect(text).toMatch(new RegExp(`\\| \`${variable}\` +\\|`));
  });
});

describe('readSettings', () => {
  const S = settings({
    n: setting.int('N', 5, 'a number', { min: 1, max: 10 }),
    flag: setting.bool('FLAG', false, 'a flag'),
    kind: setting.oneOf('KIND', ['a', 'b'], 'a', 'a kind'),
    steps: setting.durations('STEPS', [1, 2], 'a schedule'),
    maybe: setting.optionalString('MAYBE', 'optional'),
    list: setting.string('LIST', 'x', 'kept empty', { keepEmpty: true }),
    nested: settings({ p: setting.number('P', 0, 'a probability', { min: 0, max: 1 }) }, 'Nested'),
  });

  it('gives the defaults when nothing is set, and leaves an optional variable out', () => {
    expect(readSettings(S, {})).toEqual({ n: 5, flag: false, kind: 'a', steps: [1, 2], list: 'x', nested: { p: 0 } });
  });

  it('reads and types each value, trimmed; an empty value is unset unless declared to keep it', () => {
    expect(readSettings(S, { N: ' 7 ', FLAG: 'yes', KIND: 'b', STEPS: '0, 30', MAYBE: 'm', LIST: '', P: '0.5' })).toEqual({
      n: 7,
      flag: true,
      kind: 'b',
      steps: [0, 30],
      maybe: 'm',
      list: '',
      nested: { p: 0.5 },
    });
    expect(readSettings(S, { N: '', MAYBE: '  ' })).toEqual(readSettings(S, {}));
  });

  it('refuses a bad value with an error naming the variable', () => {
    const refused = (env: Record<string, string>) => {
      try {
        readSettings(S, env);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused({ N: 'many' })).toBe('configuration N: "many" is not an integer');
    expect(refused({ N: '0' })).toBe('configuration N: 0 is below the minimum 1');
    expect(refused({ N: '11' })).toBe('configuration N: 11 is above the maximum 10');
    expect(refused({ FLAG: 'maybe' })).toBe('configuration FLAG: "maybe" is not a boolean (true/false)');
    expect(refused({ KIND: 'c' })).toBe('configuration KIND: "c" is not one of a, b');
    expect(refused({ STEPS: '1,x' })).toBe('configuration STEPS: "1,x" is not a comma-separated list of milliseconds');
    expect(refused({ P: '2' })).toBe('configuration P: 2 is above the maximum 1');
  });
});
