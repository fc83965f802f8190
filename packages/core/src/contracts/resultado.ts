import type { Transaction } from '../operation';
import { literals } from './fields';
import { Type, type Static } from '@sinclair/typebox';
import { ESTADOS, MOTIVOS_RECHAZO } from '../estados';
import { BANCOS } from './bancos';

/** The merchant's view of a transaction (SPEC 2.4); only for transactions with a recorded outcome. */
export function toResultado(tx: Transaction): Resultado {
  if (tx.estado === null) throw new Error(`transaction ${tx.id} has no outcome yet`);
  const resultado: Resultado = {
    id: tx.id,
    estado: tx.estado,
    banco_usado: tx.bancoUsado,
    referencia_banco: tx.referenciaBanco,
    endtoend: tx.endtoend,
    motivo_rechazo: tx.estado === 'RECHAZADA' ? tx.motivoRechazo : null,
    intentos: tx.attempts.length,
  };
  if (tx.raw) resultado.raw = tx.raw;
  return resultado;
}

export const EstadoSchema = literals(ESTADOS, {
  description:
    'ACEPTADA (approved, settling), PENDIENTE (in interbank settlement), LIQUIDADA (settled, final), RECHAZADA (final, reason in motivo_rechazo), DESCONOCIDA (the bank may have moved the money: query /switch/v1/consultar, never resend with a new key). ERROR is listed by the contract but never produced by this switch: its own failures are retried until they pass.',
});
export const MotivoSchema = literals(MOTIVOS_RECHAZO);

/** Response of cobrar, cobrar/token, pagar, consultar and reverso (SPEC 2.4). */
export const Resultado = Type.Object({
  id: Type.String({ description: 'Transaction id, used by /consultar' }),
  estado: EstadoSchema,
  banco_usado: Type.Union([literals(BANCOS), Type.Null()], {
    description: 'Bank that processed the operation; null only when no bank was able to (BANCO_NO_DISPONIBLE by routing)',
  }),
  referencia_banco: Type.Union([Type.String(), Type.Null()]),
  endtoend: Type.Union([Type.String(), Type.Null()]),
  motivo_rechazo: Type.Union([MotivoSchema, Type.Null()]),
  intentos: Type.Integer({ minimum: 0 }),
  raw: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Untouched bank data' })),
});
export type Resultado = Static<typeof Resultado>;
