import { startEmulator } from './server';

/**
 * The Bancaribe emulator as a process for local runs:
 * `PORT=8243 BANCARIBE_EMULATOR_CONSUMER_KEY=… BANCARIBE_EMULATOR_CONSUMER_SECRET=… node services/bank-bancaribe/dist/emulator/main.js`
 */
async function main(): Promise<void> {
  const env = process.env;
  const int = (name: string, fallback: number) => {
    const v = env[name];
    if (v === undefined || v === '') return fallback;
    if (!/^[0-9]+$/.test(v)) throw new Error(`${name}: "${v}" is not a non-negative integer`);
    return Number(v);
  };
  const emulator = await startEmulator({
    port: int('PORT', 8243),
    host: env.HOST ?? '127.0.0.1',
    credentials: {
      consumerKey: env.BANCARIBE_EMULATOR_CONSUMER_KEY ?? 'emulator-key',
      consumerSecret: env.BANCARIBE_EMULATOR_CONSUMER_SECRET ?? 'emulator-secret',
    },
    merchant: {
      ...(env.BANCARIBE_EMULATOR_MERCHANT_RIF ? { rif: env.BANCARIBE_EMULATOR_MERCHANT_RIF } : {}),
      ...(env.BANCARIBE_EMULATOR_MERCHANT_PHONE ? { telefono: env.BANCARIBE_EMULATOR_MERCHANT_PHONE } : {}),
      ...(env.BANCARIBE_EMULATOR_MERCHANT_ACCOUNT ? { cuenta: env.BANCARIBE_EMULATOR_MERCHANT_ACCOUNT } : {}),
      ...(env.BANCARIBE_EMULATOR_CLIENT_HASH ? { hash: env.BANCARIBE_EMULATOR_CLIENT_HASH } : {}),
    },
    tokenTtlSeconds: int('TOKEN_TTL_SECONDS', 3600),
    settleDelayMs: int('SETTLE_DELAY_MS', 2000),
    // The sandbox's slow settlement (amounts ending in .83).
    slowSettleDelayMs: int('SLOW_SETTLE_DELAY_MS', 60_000),
  });
  process.stdout.write(`bancaribe emulator listening on ${emulator.url}\n`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`bancaribe emulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
