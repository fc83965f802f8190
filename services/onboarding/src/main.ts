import { readSettings } from '@switch/platform/config/env';
import { OnboardingSettings, resolveConnection, run, USAGE, UsageError } from './cli';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length === 0 || args[0] === 'help' || args[0] === '--help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const connection = resolveConnection(readSettings(OnboardingSettings), process.cwd());
  const { ok, output } = await run(args, connection);
  (ok ? process.stdout : process.stderr).write(`${output}\n`);
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof UsageError ? `${error.message}\n\n${USAGE}` : String(error)}\n`);
    process.exit(2);
  },
);
