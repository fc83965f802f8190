/** Typed configuration from the environment, with a clear error naming each bad value. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`configuration ${variable}: ${problem}`);
  }
}

type Env = Record<string, string | undefined>;

export function envReader(env: Env = process.env): EnvReader {
  const raw = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  return {
    string(name: string, fallback: string): string {
      return raw(name) ?? fallback;
    },
    optionalString(name: string): string | undefined {
      return raw(name);
    },
    int(name: string, fallback: number, range: { min?: number; max?: number } = {}): number {
      const v = raw(name);
      if (v === undefined) return fallback;
      if (!/^-?[0-9]+$/.test(v)) throw new ConfigError(name, `"${v}" is not an integer`);
      const n = Number(v);
      if (range.min !== undefined && n < range.min) throw new ConfigError(name, `${n} is below the minimum ${range.min}`);
      if (range.max !== undefined && n > range.max) throw new ConfigError(name, `${n} is above the maximum ${range.max}`);
      return n;
    },
    bool(name: string, fallback: boolean): boolean {
      const v = raw(name);
      if (v === undefined) return fallback;
      if (['1', 'true', 'yes', 'on'].includes(v.toLowerCase())) return true;
      if (['0', 'false', 'no', 'off'].includes(v.toLowerCase())) return false;
      throw new ConfigError(name, `"${v}" is not a boolean (true/false)`);
    },
    oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
      const v = raw(name);
      if (v === undefined) return fallback;
      if (!(values as readonly string[]).includes(v)) throw new ConfigError(name, `"${v}" is not one of ${values.join(', ')}`);
      return v as T;
    },
    /** Comma-separated milliseconds (a retry or backoff schedule). */
    durations(name: string, fallback: readonly number[]): readonly number[] {
      const v = raw(name);
      if (v === undefined) return fallback;
      const steps = v.split(',').map((s) => s.trim());
      if (steps.some((s) => !/^[0-9]+$/.test(s))) throw new ConfigError(name, `"${v}" is not a comma-separated list of milliseconds`);
      return steps.map(Number);
    },
    /** A reader where `top`'s variables (when present, even empty) hide the same ones of this one. */
    with(top: Record<string, string>): EnvReader {
      return envReader({ ...env, ...top });
    },
    /** The raw value when set, even if empty ("" is meaningful for lists: nothing enabled). */
    present(name: string): string | undefined {
      return env[name];
    },
  };
}
export interface EnvReader {
  string(name: string, fallback: string): string;
  optionalString(name: string): string | undefined;
  int(name: string, fallback: number, range?: { min?: number; max?: number }): number;
  bool(name: string, fallback: boolean): boolean;
  oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T;
  durations(name: string, fallback: readonly number[]): readonly number[];
  with(top: Record<string, string>): EnvReader;
  present(name: string): string | undefined;
}

/**
 * How long a rotated webhook secret keeps signing beside the new one (docs/webhooks.md "Rotating the
 * secret"): `SWITCH_WEBHOOK_ROTATION_OVERLAP_S`, default 24 h, 0 to 7 days. Read by the gateway and the panel.
 */
export function loadRotationOverlapSeconds(env: EnvReader): number {
  return env.int('SWITCH_WEBHOOK_ROTATION_OVERLAP_S', 86_400, { min: 0, max: 7 * 86_400 });
}
