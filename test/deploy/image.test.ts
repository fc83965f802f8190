import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bankPackages, imageFindings } from './image';
import { REPO } from './rules';

/** The production image ships no bank emulator (checked on the Dockerfile and the sources: no Docker needed). */
describe('the production image', () => {
  const dockerfile = readFileSync(join(REPO, 'Dockerfile'), 'utf8');
  const banks = bankPackages(REPO);

  it("leaves no emulator code: the build stage deletes it, the runtime stage takes only the build's /out, no bank's runtime imports it", () => {
    expect(banks.length).toBeGreaterThanOrEqual(3);
    expect(imageFindings(dockerfile, banks)).toEqual([]);
  });

  it('fails a Dockerfile that would ship an emulator', () => {
    expect(dockerfile).toContain('rm -rf /out/services/*/dist/emulator');
    expect(imageFindings(dockerfile.replace('rm -rf /out/services/*/dist/emulator', 'true'), banks).join('\n')).toMatch(
      /build stage: no RUN/,
    );
    expect(imageFindings(dockerfile.replace('COPY --from=build /out/ ./', 'COPY --from=build /app/ ./'), banks).join('\n')).toMatch(
      /runtime stage: "COPY --from=build \/app\/ .\/" copies something other/,
    );
    // The test-only emulators stage must not become the default target (the last stage).
    const emulatorsStage = dockerfile.slice(dockerfile.indexOf('# --- emulators'), dockerfile.indexOf('# --- runtime'));
    expect(emulatorsStage).toContain('AS emulators');
    expect(imageFindings(`${dockerfile.replace(emulatorsStage, '')}\n${emulatorsStage}`, banks).join('\n')).toMatch(
      /the last stage is "emulators"/,
    );
  });

  it('fails a bank whose runtime imports its emulator, or that exports it from elsewhere', () => {
    const [bank] = structuredClone(banks);
    bank!.runtime.push({ path: 'services/x/src/main.ts', text: "import { startEmulator } from '../emulator/server';" });
    bank!.packageJson.exports = { ...bank!.packageJson.exports, './emulator': './emulator/index.ts' };
    const findings = imageFindings(dockerfile, [bank!]).join('\n');
    expect(findings).toMatch(/services\/x\/src\/main.ts: runtime code imports an emulator/);
    expect(findings).toMatch(/is outside dist\/emulator/);
  });
});
