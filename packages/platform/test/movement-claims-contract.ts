import { storesClosedAfterEach } from './store-lifecycle';
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Mode } from '@switch/core/contracts/bancos';
import { movementClaimId, type ClaimedMovement, type MovementClaim } from '../src/ports/movement-claims';
import type { Store } from '../src/ports/store';

/** A pago móvil credit of 150.00 to a fresh account. */
export const sampleMovement = (over: Partial<ClaimedMovement> = {}): ClaimedMovement => ({
  banco: 'bnc',
  cuenta: `0191${String(Math.floor(Math.random() * 1e16)).padStart(16, '0')}`,
  referencia: '123456',
  fecha: '2026-11-27',
  monto: 150,
  ...over,
});

export function sampleMovementClaim(
  movement: ClaimedMovement,
  over: { mode?: Mode; merchantId?: string; claimant?: MovementClaim['claimant'] } = {},
): MovementClaim {
  const mode = over.mode ?? 'live';
  const merchantId = over.merchantId ?? 'm-1';
  return {
    id: movementClaimId(mode, merchantId, movement),
    mode,
    merchantId,
    movement,
    claimant: over.claimant ?? { kind: 'verificacion', id: `ver_${randomUUID()}` },
    createdAt: new Date().toISOString(),
  };
}

/**
 * The movement claims port (packages/platform/src/ports/movement-claims.ts): one bank movement pays
 * one verification or expected payment, whatever the concurrency. Run against every adapter.
 */
export function movementClaimsContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract (movement claims): ${name}`, () => {
    const store = storesClosedAfterEach(makeStore);

    it('of 50 concurrent claims of one movement exactly one wins, and every loser is told the winner', async () => {
      const s = await store();
      const movement = sampleMovement();
      const claims = Array.from({ length: 50 }, () => sampleMovementClaim(movement));
      const results = await Promise.all(claims.map((c) => s.movementClaims.claim(c)));
      const winners = results.flatMap((r, i) => (r.claimed ? [claims[i]!] : []));
      expect(winners).toHaveLength(1);
      const winner = winners[0]!;
      for (const r of results) if (!r.claimed) expect(r.existing.claimant).toEqual(winner.claimant);
      expect(await s.movementClaims.get(winner.id)).toEqual(winner);
    });

    it('tells movements apart by bank, account, reference, date and amount; the same again is held', async () => {
      const s = await store();
      const base = sampleMovement();
      const variants: ClaimedMovement[] = [
        base,
        { ...base, banco: 'banco_plaza' },
        {
          ...base,
          cuenta: `${base.cuenta.slice(0, 19)}9` === base.cuenta ? `${base.cuenta.slice(0, 19)}8` : `${base.cuenta.slice(0, 19)}9`,
        },
        { ...base, referencia: '123457' },
        { ...base, fecha: '2026-11-28' },
        { ...base, monto: 150.01 },
      ];
      for (const m of variants) expect((await s.movementClaims.claim(sampleMovementClaim(m))).claimed).toBe(true);
      const again = await s.movementClaims.claim(
        sampleMovementClaim({ ...base, monto: 150.0 }, { claimant: { kind: 'esperado', id: 'esp_1' } }),
      );
      expect(again.claimed).toBe(false);
    });

    it('keeps test-mode merchants apart on one emulated account, and live claims across merchants', async () => {
      const s = await store();
      const movement = sampleMovement();
      expect((await s.movementClaims.claim(sampleMovementClaim(movement, { mode: 'test', merchantId: 'm-a' }))).claimed).toBe(true);
      expect((await s.movementClaims.claim(sampleMovementClaim(movement, { mode: 'test', merchantId: 'm-b' }))).claimed).toBe(true);
      expect((await s.movementClaims.claim(sampleMovementClaim(movement, { mode: 'live', merchantId: 'm-a' }))).claimed).toBe(true);
      expect((await s.movementClaims.claim(sampleMovementClaim(movement, { mode: 'live', merchantId: 'm-b' }))).claimed).toBe(false);
    });

    it('keeps one verification answer per idempotency scope: of 20 concurrent saves one wins, the others read it', async () => {
      const s = await store();
      const scope = `m-1|test|verificar|${randomUUID()}`;
      const record = (n: number) => ({
        scope,
        merchantId: 'm-1',
        mode: 'test' as const,
        fingerprint: `fp-${n}`,
        answer: {
          id: `ver_${n}`,
          estado: 'VERIFICADO' as const,
          banco: 'bnc' as const,
          monto_declarado: 10,
          monto_recibido: 10,
          movimiento: { referencia: '123456', fecha: '2026-11-27', hora: null, monto: 10 },
          reintentar_despues: null,
          reclamado_por: null,
          motivo_rechazo: null,
          verificado_en: '2026-11-27T12:00:00.000Z',
        },
        createdAt: '2026-11-27T12:00:00.000Z',
      });
      const results = await Promise.all(Array.from({ length: 20 }, (_, n) => s.verifications.save(record(n))));
      const won = results.flatMap((r, n) => (r.saved ? [n] : []));
      expect(won).toHaveLength(1);
      for (const r of results) if (!r.saved) expect(r.existing).toEqual(record(won[0]!));
      expect(await s.verifications.get(scope)).toEqual(record(won[0]!));
      expect(await s.verifications.get(`${scope}x`)).toBeNull();
    });

    it('reads back a copy: changing it changes nothing stored', async () => {
      const s = await store();
      const claim = sampleMovementClaim(sampleMovement());
      await s.movementClaims.claim(claim);
      const read = (await s.movementClaims.get(claim.id))!;
      read.claimant.id = 'changed';
      expect((await s.movementClaims.get(claim.id))!.claimant).toEqual(claim.claimant);
      expect(await s.movementClaims.get('live|nothing')).toBeNull();
    });
  });
}
