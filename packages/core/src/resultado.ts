import type { Resultado } from './contracts/resultado';
import type { Transaction } from './operation';

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
