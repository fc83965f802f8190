import type { CobroEsperado } from '@switch/core/contracts/esperados';
import type { DeliveryView, EndpointView } from '@switch/core/contracts/webhook-endpoints';
import type { Resultado } from '@switch/core/contracts/operaciones';
import type { TransaccionDetalle } from '@switch/core/contracts/transacciones';
import type { MoneyOperations } from './operations';

/**
 * Documented test-mode operations every test key can query (`/consultar`) and reverse (`/reverso`),
 * so the `/docs` examples work as they are, with any test key, before the caller has made an
 * operation of its own (docs/decisions/0020-sandbox-example-operations.md). They are answers, not
 * transactions: nothing is stored, no bank is asked, and a live key sees no such id (404).
 */
export const EXAMPLE_TXN_ID = 'txn_ejemplo';
export const EXAMPLE_REVERSO_ID = 'txn_ejemplo_reverso';

/** A pago móvil payout by the simulated bank, settled (what the `pagar` example answers). */
const EXAMPLE_PAYOUT: Resultado = {
  id: EXAMPLE_TXN_ID,
  estado: 'LIQUIDADA',
  banco_usado: 'bnc',
  referencia_banco: 'TEST-6f1c8a52',
  endtoend: null,
  motivo_rechazo: null,
  intentos: 1,
  raw: { simulated: true, ejemplo: true },
};

/** Its reverse: the simulated rail has no cancellation (SPEC 4.8), as bank-sim answers any reverso. */
const EXAMPLE_REVERSE: Resultado = {
  id: EXAMPLE_REVERSO_ID,
  estado: 'RECHAZADA',
  banco_usado: 'bnc',
  referencia_banco: null,
  endtoend: null,
  motivo_rechazo: 'NO_SOPORTADO',
  intentos: 1,
  raw: { simulated: true, ejemplo: true, codigo: 'NS', descripcion: 'El riel simulado no admite reverso' },
};

/** The example operation of that id, in test mode only. */
export function exampleOperation(mode: 'test' | 'live', id: string): Resultado | undefined {
  if (mode !== 'test') return undefined;
  if (id === EXAMPLE_TXN_ID) return structuredClone(EXAMPLE_PAYOUT);
  if (id === EXAMPLE_REVERSO_ID) return structuredClone(EXAMPLE_REVERSE);
  return undefined;
}

/** The answer to reversing the example operation, in test mode only. */
function exampleReverse(mode: 'test' | 'live', id: string): Resultado | undefined {
  return mode === 'test' && id === EXAMPLE_TXN_ID ? structuredClone(EXAMPLE_REVERSE) : undefined;
}

/**
 * The money operations with the example operation answered in front of them: `consultar` of either
 * example id and `reverso` of the example payout, with a test key. Anything else, and every live
 * request, reaches the operations as it came, so the money path itself knows nothing of examples.
 */
export function withExampleOperations(operations: MoneyOperations): MoneyOperations {
  return {
    run: async (caller, request) => {
      const example = request.kind === 'reverso' ? exampleReverse(caller.mode, request.body.id) : undefined;
      return example ? { resultado: example, replayed: false } : operations.run(caller, request);
    },
    query: async (caller, id) => exampleOperation(caller.mode, id) ?? operations.query(caller, id),
  };
}

/**
 * The sample webhook endpoint and its one delivery (of the example operation), so the `/docs` examples
 * of the endpoint and delivery routes answer a success with any test key too. Like the example
 * operation, they are answers: changing, rotating, deleting or redelivering them stores nothing, and
 * they are not listed among the merchant's own endpoints.
 */
export const EXAMPLE_ENDPOINT_ID = 'we_ejemplo';
export const EXAMPLE_DELIVERY_ID = `${EXAMPLE_TXN_ID}.v1.${EXAMPLE_ENDPOINT_ID}`;
const EXAMPLE_AT = '2026-11-24T15:02:58.123Z';

const EXAMPLE_ENDPOINT: EndpointView = {
  id: EXAMPLE_ENDPOINT_ID,
  url: 'https://tienda.example/webhooks/switch',
  events: ['transaccion.aprobada', 'transaccion.liquidada', 'transaccion.rechazada'],
  active: true,
  rotacion_hasta: null,
  creado: '2026-11-01T12:00:00.000Z',
};

const EXAMPLE_DELIVERY: DeliveryView = {
  id: EXAMPLE_DELIVERY_ID,
  endpoint_id: EXAMPLE_ENDPOINT_ID,
  transaccion_id: EXAMPLE_TXN_ID,
  evento: 'transaccion.liquidada',
  url: EXAMPLE_ENDPOINT.url,
  estado: 'delivered',
  proximo_intento: null,
  intentos: [{ n: 1, en: EXAMPLE_AT, codigo_http: 200, latencia_ms: 84, error: null }],
  creada: EXAMPLE_AT,
};

/** A fixed secret, so the sample answer is the same every time; it signs nothing. */
const EXAMPLE_SECRET = 'whsec_ZWplbXBsbyBkZSBzZWNyZXRvIHNpbiB1c286IG5hZGE=';

const isExample = (mode: 'test' | 'live', id: string, exampleId: string) => mode === 'test' && id === exampleId;

/** The example operation in detail (`GET /transacciones/{id}`), in test mode only. */
export function exampleDetail(mode: 'test' | 'live', id: string): TransaccionDetalle | undefined {
  if (!isExample(mode, id, EXAMPLE_TXN_ID)) return undefined;
  return {
    resultado: structuredClone(EXAMPLE_PAYOUT),
    operacion: 'pagar',
    idempotency_key: '6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60',
    solicitud: {
      idempotency_key: '6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60',
      monto: { valor: 150.5, moneda: 'VES' },
      concepto: 'Pago a proveedor',
      via: 'pago_movil',
    },
    historial: [
      { desde: null, hacia: 'LIQUIDADA', en: EXAMPLE_AT, causa: 'bank_outcome', motivo: null, raw: { simulated: true, ejemplo: true } },
    ],
    intentos: [{ n: 1, banco: 'bnc', via: 'pago_movil', enviado: '2026-11-24T15:02:57.950Z', resultado: 'LIQUIDADA' }],
    evidencia: [],
    creada: '2026-11-24T15:02:57.901Z',
    actualizada: EXAMPLE_AT,
  };
}

/** The sample endpoint, with a change applied to the answer only, in test mode only. */
export function exampleEndpoint(
  mode: 'test' | 'live',
  id: string,
  change: { events?: EndpointView['events']; active?: boolean } = {},
): EndpointView | undefined {
  if (!isExample(mode, id, EXAMPLE_ENDPOINT_ID)) return undefined;
  return {
    ...structuredClone(EXAMPLE_ENDPOINT),
    ...(change.events ? { events: [...new Set(change.events)] } : {}),
    ...(change.active !== undefined ? { active: change.active } : {}),
  };
}

/** The sample endpoint's rotation answer: a fixed sample secret, in test mode only. */
export function exampleRotation(mode: 'test' | 'live', id: string, now = new Date()): (EndpointView & { secret: string }) | undefined {
  const endpoint = exampleEndpoint(mode, id);
  return endpoint && { ...endpoint, rotacion_hasta: new Date(now.getTime() + 86_400_000).toISOString(), secret: EXAMPLE_SECRET };
}

/** The deliveries of the example operation or of the sample endpoint, in test mode only. */
export function exampleDeliveries(mode: 'test' | 'live', of: 'transaction' | 'endpoint', id: string): DeliveryView[] | undefined {
  return isExample(mode, id, of === 'transaction' ? EXAMPLE_TXN_ID : EXAMPLE_ENDPOINT_ID) ? [structuredClone(EXAMPLE_DELIVERY)] : undefined;
}

/** Redelivering the sample delivery: pending again now, in test mode only. */
export function exampleRedelivery(mode: 'test' | 'live', id: string, now = new Date()): DeliveryView | undefined {
  if (!isExample(mode, id, EXAMPLE_DELIVERY_ID)) return undefined;
  return { ...structuredClone(EXAMPLE_DELIVERY), estado: 'pending', proximo_intento: now.toISOString() };
}

/** The sandbox's example expected payment: `GET /cobros/esperados/esp_ejemplo` in test mode. */
export const EXAMPLE_EXPECTED_ID = 'esp_ejemplo';

const EXAMPLE_EXPECTED: CobroEsperado = {
  id: EXAMPLE_EXPECTED_ID,
  estado: 'RECIBIDO',
  monto: 250.5,
  moneda: 'VES',
  recibido: 250.5,
  concepto: 'Pedido 42',
  orden_id: 'orden-42',
  instrucciones: {
    telefono: '04120000001',
    banco: '0191',
    cuenta: '01910000000000000777',
    rif: 'J123456789',
    monto: 250.5,
    concepto: 'EK7P3QZ Pedido 42',
  },
  vence_en: '2026-11-25T14:00:00.000Z',
  creado_en: '2026-11-24T14:00:00.000Z',
  actualizado_en: '2026-11-24T15:02:58.000Z',
  movimientos: [{ banco: 'bnc', referencia: '45678901', fecha: '2026-11-24', monto: 250.5 }],
  historial: [{ de: 'ESPERADO', a: 'RECIBIDO', motivo: 'pago_exacto', en: '2026-11-24T15:02:58.000Z' }],
};

/** The example expected payment, in test mode only. */
export function exampleExpected(mode: 'test' | 'live', id: string): CobroEsperado | undefined {
  return isExample(mode, id, EXAMPLE_EXPECTED_ID) ? structuredClone(EXAMPLE_EXPECTED) : undefined;
}
