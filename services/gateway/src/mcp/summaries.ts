import type { Verificacion } from '@switch/core/contracts/verificacion';
import type { CobroEsperado } from '@switch/core/contracts/esperados';
import type { BancoCatalogo, Movimientos, Saldo } from '@switch/core/contracts/bancos';
import type { MotivoRechazo } from '@switch/core/estados';
import type { Resultado } from '@switch/core/contracts/operaciones';
import type { ToolName } from './tools';

/**
 * One short paragraph in Spanish beside each structured answer, written for an agent: what happened
 * and what to do next. The money-safety rules of SPEC 3 and 7.4 are repeated where they matter, because
 * an agent acts on this text.
 */

/** SPEC 7.2's suggested reaction to each rejection reason. */
export const REACCION: Record<MotivoRechazo, string> = {
  SALDO_INSUFICIENTE: 'el pagador u ordenante no tiene fondos: avisa y reintenta más tarde',
  OTP_INVALIDO: 'el OTP expiró o es incorrecto: solicita un OTP nuevo con `cobrar_token` y reintenta el cobro',
  CUENTA_NO_EXISTE: 'la cuenta de origen o destino no existe: corrige el instrumento',
  CUENTA_BLOQUEADA: 'la cuenta está bloqueada: no se puede reintentar',
  CUENTA_NO_DEBITO: 'la cuenta no admite débitos: usa otro instrumento',
  CUENTA_NO_CREDITO: 'la cuenta no admite créditos: usa otro instrumento',
  MONTO_INVALIDO: 'monto fuera de rango o de formato: corrige el monto',
  EXCEDE_LIMITE: 'excede un límite (del banco o de riesgo): reduce el monto',
  BENEFICIARIO_NO_COINCIDE: 'el nombre o la identificación no coinciden con la cuenta: verifica los datos del destino',
  NO_AFILIADO_SERVICIO: 'el titular no está afiliado al servicio de pago: debe afiliarse en su banco',
  BANCO_NO_DISPONIBLE:
    'el banco no está disponible o no procesó la operación: reintenta más tarde (los pagos pueden reencaminarse a otro banco)',
  DUPLICADA: 'la operación ya fue procesada: consulta la original, no la repitas',
  FUERA_DE_HORARIO: 'fuera del horario del banco: reintenta en unas horas',
  CANCELADA_POR_PAGADOR: 'el pagador la canceló: no se puede reintentar',
  PENDIENTE_BCV: 'en liquidación en el BCV: consulta más tarde con `consultar`',
  RECHAZO_TECNICO: 'falla técnica del banco: reintenta con espera creciente',
  FIRMA_AUTH: 'problema de credenciales o configuración con el banco: no reintentes ni cambies de banco; repórtalo al operador del switch',
  NO_SOPORTADO: 'operación no soportada en este riel (p. ej. reverso sin anulación): usa un flujo alterno',
  BLOQUEO_RIESGO: 'bloqueada por el motor de riesgo: revisa listas y velocidad; no reintentes a ciegas',
  DESCONOCIDO: 'motivo no clasificado: consulta con `consultar` e inspecciona `raw`',
};

const NUEVO_INTENTO =
  'RECHAZADA es definitiva: repetir con la misma idempotency_key devuelve este mismo rechazo; un nuevo intento es una operación nueva con una idempotency_key nueva.';

/** The next step after a Resultado, by its state and the tool that produced it. */
export function resumenResultado(tool: ToolName, r: Resultado): string {
  const op = `Operación ${r.id}`;
  const banco = r.banco_usado ? ` (banco ${r.banco_usado})` : '';
  switch (r.estado) {
    case 'LIQUIDADA':
      return `${op} LIQUIDADA${banco}: el dinero se movió y el estado es final. No la repitas con otra idempotency_key: eso sería otra operación.`;
    case 'ACEPTADA':
      if (tool === 'cobrar_token') {
        return `${op} ACEPTADA: OTP solicitado al banco del pagador${banco}, válido unos 120 s. Pide el OTP al pagador y llama a \`cobrar\` con la MISMA idempotency_key, los mismos datos y el campo \`otp\`.`;
      }
      return `${op} ACEPTADA${banco}: aprobada, se liquida después. ${tool === 'cobrar' ? 'Cuenta como cobro exitoso. ' : ''}Verifica la liquidación con \`consultar\` y el id ${r.id} (o espera el webhook transaccion.liquidada); no la reenvíes.`;
    case 'PENDIENTE':
      return `${op} PENDIENTE${banco}: en liquidación interbancaria. Consulta más tarde con \`consultar\` y el id ${r.id}; no la reenvíes.`;
    case 'RECHAZADA': {
      const motivo = r.motivo_rechazo;
      const reaccion = motivo ? REACCION[motivo] : REACCION.DESCONOCIDO;
      return `${op} RECHAZADA${banco}, motivo ${motivo ?? 'DESCONOCIDO'}: ${reaccion}. ${NUEVO_INTENTO}`;
    }
    case 'DESCONOCIDA':
      return `${op} DESCONOCIDA: no hubo respuesta a tiempo y el banco pudo haber movido el dinero. Consulta con \`consultar\` y el id ${r.id} antes de cualquier reintento o reembolso. NUNCA la reenvíes con una idempotency_key nueva; repetir con la misma clave es seguro.`;
    case 'ERROR':
      return `${op} ERROR: falla técnica interna sin efecto en el banco. Repite la misma llamada con la MISMA idempotency_key.`;
  }
}

export function resumenBancos(bancos: BancoCatalogo[]): string {
  if (!bancos.length) return 'No hay bancos habilitados para el modo de esta clave: las operaciones se rechazarán con BANCO_NO_DISPONIBLE.';
  return `Bancos habilitados: ${bancos.map((b) => `${b.banco} (${b.capabilities.join(', ')})`).join('; ')}. La clave es válida.`;
}

export function resumenSaldo(s: Saldo): string {
  return `Saldo de la cuenta ${s.cuenta} en ${s.banco}: disponible ${s.disponible} ${s.moneda}, contable ${s.contable}, bloqueado ${s.bloqueado} (a ${s.consultado_en}).`;
}

export function resumenMovimientos(m: Movimientos): string {
  const pagina = `${m.movimientos.length} movimientos de la cuenta ${m.cuenta} (${m.banco}) del ${m.desde} al ${m.hasta}.`;
  return m.siguiente ? `${pagina} Hay más: vuelve a llamar a \`movimientos\` con cursor=${m.siguiente}.` : `${pagina} Es la última página.`;
}

/** A verification's answer in one sentence: what the cashier does next. */
export function resumenVerificacion(v: Verificacion): string {
  switch (v.estado) {
    case 'VERIFICADO':
      return `VERIFICADO: el pago de ${v.monto_recibido} VES está en la cuenta (${v.banco}, referencia ${v.movimiento?.referencia}) y queda reclamado por ${v.id}. Se puede entregar el pedido.`;
    case 'MONTO_DISTINTO':
      return `MONTO_DISTINTO: llegó un pago con esa referencia por ${v.monto_recibido} VES, no por ${v.monto_declarado} VES. No queda reclamado.`;
    case 'NO_ENCONTRADO':
      return v.reintentar_despues
        ? `NO_ENCONTRADO: el banco aún no muestra ese pago. Vuelve a preguntar después de ${v.reintentar_despues} (con la misma idempotency_key).`
        : 'NO_ENCONTRADO: el banco no muestra ese pago y ya no aparecerá: la captura no corresponde a un pago recibido.';
    case 'YA_RECLAMADO':
      return `YA_RECLAMADO: ese pago ya se usó${v.reclamado_por ? ` (${v.reclamado_por.tipo} ${v.reclamado_por.id})` : ''}. No lo aceptes de nuevo.`;
    case 'RECHAZADA':
      return `RECHAZADA: el banco no pudo responder (${v.motivo_rechazo}). Reintenta en unos minutos con la misma idempotency_key.`;
  }
}

/** A REST refusal (4xx, 5xx) as the text of a tool error; the body itself travels beside it as JSON. */
export function resumenError(status: number, body: { error?: unknown; message?: unknown; detail?: unknown }): string {
  const message = typeof body.message === 'string' ? ` ${body.message}.` : '';
  switch (body.error) {
    case 'VALIDATION': {
      const detail = body.detail && typeof body.detail === 'object' ? Object.entries(body.detail as Record<string, string>) : [];
      return `Argumentos inválidos; no se creó ninguna operación. Corrige: ${detail.map(([field, why]) => `${field} ${why}`).join('; ')}.`;
    }
    case 'unauthorized':
      return 'Clave rechazada (unauthorized): falta, está mal formada, es inválida o fue revocada. Usa una clave activa `<comercio>:sk_test_...` o `<comercio>:sk_live_...`.';
    case 'NOT_FOUND':
      return `No encontrado (NOT_FOUND):${message || ' no existe para este comercio y modo.'} Revisa el id: solo se ven operaciones del mismo comercio y modo.`;
    case 'IDEMPOTENCY_CONFLICT':
      return `Conflicto de idempotencia:${message} Si quieres repetir la misma operación usa exactamente los mismos datos; si es una operación nueva, usa una idempotency_key nueva.`;
    case 'RATE_LIMITED':
      return `Demasiadas solicitudes (RATE_LIMITED):${message} Espera y repite con la misma idempotency_key.`;
    case 'SERVICE_UNAVAILABLE':
      return `Servicio no disponible (HTTP ${status}):${message} Repite más tarde con la MISMA idempotency_key (nunca una nueva).`;
    default:
      return `El switch respondió HTTP ${status} (${String(body.error ?? 'error')}):${message} Si era una operación de dinero, repite con la MISMA idempotency_key o consulta con \`consultar\`.`;
  }
}

/** A new (or repeated) expected payment: what to tell the payer, and what happens next. */
export function resumenCobroEsperado(c: CobroEsperado): string {
  const i = c.instrucciones;
  const destino = i.telefono ? `pago móvil al ${i.telefono}` : `transferencia a la cuenta ${i.cuenta}`;
  return `Cobro esperado ${c.id} (${c.estado}). Indica al pagador: ${destino}, banco ${i.banco}${i.rif ? `, RIF ${i.rif}` : ''}, monto exacto ${i.monto.toFixed(2)} VES, concepto "${i.concepto}". Vence ${c.vence_en}; el cambio de estado llega por webhook (cobro_esperado.*).`;
}
