import { Type, type TSchema } from '@sinclair/typebox';
import { BancoCatalogo, Movimientos, MovimientosQuery, Saldo, SaldoQuery, type Mode } from '@switch/core/contracts/bancos';
import { CobrarBody, ConsultarBody, PagarBody, ReversoBody, TokenBody, Resultado } from '@switch/core/contracts/operaciones';
import { Verificacion, VerificarBody } from '@switch/core/contracts/verificacion';
import { CobroEsperado, CobroEsperadoRequest } from '@switch/core/contracts/esperados';
import type { RestRequest } from './rest';

/**
 * The merchant operations as MCP tools. Input schemas are the REST API's own TypeBox schemas (one
 * source of truth); each tool is carried out as the equivalent REST request, so the REST API stays the
 * only place that validates, claims keys and answers errors. The merchant API has no transaction list
 * today, so there is no tool for one.
 */
export const TOOL_NAMES = [
  'bancos',
  'pagar',
  'cobrar_token',
  'cobrar',
  'consultar',
  'reverso',
  'saldo',
  'movimientos',
  'verificar_pago',
  'crear_cobro_esperado',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface SwitchTool {
  name: ToolName;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
  /** The REST request that carries the call out. */
  toRest(args: Record<string, unknown>): RestRequest;
  /** The REST answer as structured content (an MCP result must be an object: arrays are wrapped). */
  structured(body: unknown): Record<string, unknown>;
}

/** Plain JSON Schema: TypeBox's symbol keys dropped, nothing shared by reference with the REST routes. */
const jsonSchema = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

const BancosOutput = Type.Object({ bancos: Type.Array(BancoCatalogo, { description: 'Enabled banks of the key mode' }) });
const NoArguments = Type.Object({});

const MODE_NOTE: Record<Mode, string> = {
  test: 'MODO TEST (clave sk_test_): no mueve dinero real; el banco simulado `bnc` y los entornos de prueba de los bancos responden.',
  live: 'MODO LIVE (clave sk_live_): mueve DINERO REAL por los rieles bancarios.',
};

const idempotencyNote = (what: string) =>
  `Requiere \`idempotency_key\` (UUID v4). Repetir la llamada con la MISMA idempotency_key es seguro: no crea otra operación y devuelve la misma operación (mismo id). Una idempotency_key NUEVA es ${what} nuevo. La misma clave con otros datos se rechaza (IDEMPOTENCY_CONFLICT).`;

const READ_NOTE = 'Solo lectura: no mueve dinero.';

/** Scalars of a tool's arguments as a GET query (the REST API validates them as it would a URL). */
function queryOf(args: Record<string, unknown>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    query[name] =
      typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  }
  return query;
}

const asObject = (body: unknown): Record<string, unknown> =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : { valor: body };

/** The tools a server lists for a key of `mode`: titles, descriptions and hints say which mode it is. */
export function switchTools(mode: Mode): SwitchTool[] {
  const live = mode === 'live';
  const modeTag = live ? 'LIVE, dinero real' : 'TEST, sin dinero real';
  const describe = (text: string) => `${MODE_NOTE[mode]} ${text}`;
  // Moving money is destructive only when the money is real.
  const moneyHints = (title: string, movesMoney: boolean): ToolAnnotations => ({
    title,
    readOnlyHint: false,
    destructiveHint: movesMoney && live,
    idempotentHint: true,
    openWorldHint: true,
  });
  const readHints = (title: string, openWorld: boolean): ToolAnnotations => ({
    title,
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: openWorld,
  });
  const post =
    (path: string) =>
    (args: Record<string, unknown>): RestRequest => ({ method: 'POST', path, body: args });
  const resultado = jsonSchema(Resultado);

  const tools: SwitchTool[] = [
    {
      name: 'bancos',
      title: `Bancos habilitados (${modeTag})`,
      description: describe(
        `Lista los bancos habilitados para el modo de la clave y lo que cada uno puede hacer (cobrar, pagar, token, consultar, saldo, movimientos). ${READ_NOTE} Sirve para comprobar la clave.`,
      ),
      inputSchema: jsonSchema(NoArguments),
      outputSchema: jsonSchema(BancosOutput),
      annotations: readHints(`Bancos habilitados (${modeTag})`, false),
      toRest: () => ({ method: 'GET', path: '/switch/v1/bancos' }),
      structured: (body) => ({ bancos: body }),
    },
    {
      name: 'pagar',
      title: `Pagar a un beneficiario (${modeTag})`,
      description: describe(
        `Envía dinero del ordenante al beneficiario. via=pago_movil (solo destino telefono) liquida al instante (LIQUIDADA); via=credito_inmediato (por defecto, y siempre para destino cuenta) responde ACEPTADA y se liquida después: verifica con \`consultar\`. ${idempotencyNote('un pago')} Ante DESCONOCIDA consulta con \`consultar\`; nunca reenvíes con una clave nueva.`,
      ),
      inputSchema: jsonSchema(PagarBody),
      outputSchema: resultado,
      annotations: moneyHints(`Pagar (${modeTag})`, true),
      toRest: post('/switch/v1/pagar'),
      structured: asObject,
    },
    {
      name: 'cobrar_token',
      title: `Solicitar OTP de cobro (${modeTag})`,
      description: describe(
        `Pide al banco del pagador un OTP para un cobro (válido unos 120 s). ACEPTADA aquí significa que el OTP fue solicitado y enviado al pagador; no mueve dinero. Después llama a \`cobrar\` con la MISMA idempotency_key, los mismos datos y el \`otp\` que te dé el pagador. En modo test el OTP es simulado y no se envía mensaje. ${idempotencyNote('un cobro')}`,
      ),
      inputSchema: jsonSchema(TokenBody),
      outputSchema: resultado,
      annotations: moneyHints(`Solicitar OTP (${modeTag})`, false),
      toRest: post('/switch/v1/cobrar/token'),
      structured: asObject,
    },
    {
      name: 'cobrar',
      title: `Cobrar al pagador con OTP (${modeTag})`,
      description: describe(
        `Débito inmediato al pagador con su OTP (tras \`cobrar_token\` con la misma idempotency_key, o con un OTP que ya tengas). LIQUIDADA y ACEPTADA cuentan ambas como cobro exitoso; ACEPTADA se liquida después. RECHAZADA con OTP_INVALIDO pide un OTP nuevo. Con la clave de un token: los mismos monto, cobrador y pagador (si no, TOKEN_MISMATCH) y solo después de la respuesta del token (si no, TOKEN_EN_CURSO: reintenta con la misma clave). ${idempotencyNote('un cobro')}`,
      ),
      inputSchema: jsonSchema(CobrarBody),
      outputSchema: resultado,
      annotations: moneyHints(`Cobrar (${modeTag})`, true),
      toRest: post('/switch/v1/cobrar'),
      structured: asObject,
    },
    {
      name: 'consultar',
      title: `Consultar una operación (${modeTag})`,
      description: describe(
        `Estado actual de una operación por su \`id\` (el que devolvieron pagar, cobrar, cobrar_token o reverso). Si sigue abierta (ACEPTADA, PENDIENTE, DESCONOCIDA) el switch pregunta primero al banco. Es lo que hay que hacer ante DESCONOCIDA, antes de cualquier reintento o reembolso. Un id desconocido (o de otro comercio o modo) es NOT_FOUND. ${READ_NOTE}`,
      ),
      inputSchema: jsonSchema(ConsultarBody),
      outputSchema: resultado,
      annotations: readHints(`Consultar (${modeTag})`, true),
      toRest: post('/switch/v1/consultar'),
      structured: asObject,
    },
    {
      name: 'reverso',
      title: `Reversar una operación (${modeTag})`,
      description: describe(
        `Pide reversar la operación \`id\`. En rieles sin anulación responde RECHAZADA con NO_SOPORTADO (usa un flujo alterno, p. ej. un pago de devolución). Una operación tiene a lo sumo un reverso: si ya lo tiene, responde REVERSO_EXISTENTE con su id en \`reverso\` (consúltalo con \`consultar\`). ${idempotencyNote('un reverso')}`,
      ),
      inputSchema: jsonSchema(ReversoBody),
      outputSchema: resultado,
      annotations: moneyHints(`Reversar (${modeTag})`, true),
      toRest: post('/switch/v1/reverso'),
      structured: asObject,
    },
    {
      name: 'saldo',
      title: `Saldo de una cuenta (${modeTag})`,
      description: describe(`Saldo disponible, contable y bloqueado de una cuenta recaudadora (20 dígitos), según su banco. ${READ_NOTE}`),
      inputSchema: jsonSchema(SaldoQuery),
      outputSchema: jsonSchema(Saldo),
      annotations: readHints(`Saldo (${modeTag})`, true),
      toRest: (args) => ({ method: 'GET', path: '/switch/v1/saldo', query: queryOf(args) }),
      structured: asObject,
    },
    {
      name: 'movimientos',
      title: `Movimientos de una cuenta (${modeTag})`,
      description: describe(
        `Movimientos de una cuenta desde \`desde\` hasta \`hasta\` (por defecto hoy), del más antiguo al más reciente, a lo sumo 31 días por consulta; página con \`limite\` y sigue \`siguiente\` como \`cursor\` hasta que sea null. Para conciliar. ${READ_NOTE}`,
      ),
      inputSchema: jsonSchema(MovimientosQuery),
      outputSchema: jsonSchema(Movimientos),
      annotations: readHints(`Movimientos (${modeTag})`, true),
      toRest: (args) => ({ method: 'GET', path: '/switch/v1/movimientos', query: queryOf(args) }),
      structured: asObject,
    },
    {
      name: 'verificar_pago',
      title: `Verificar un pago móvil recibido (${modeTag})`,
      description: describe(
        `Comprueba en el estado de cuenta del banco receptor un pago móvil que el pagador dice haber enviado (la captura: monto, banco y teléfono o cédula del pagador, referencia, fecha) y responde \`estado\`: VERIFICADO (está, y queda reclamado por esta verificación: entrega el pedido), MONTO_DISTINTO (está con otro monto: \`monto_recibido\`), NO_ENCONTRADO (aún no está: vuelve a preguntar después de \`reintentar_despues\`; null = no aparecerá), YA_RECLAMADO (ese pago ya se usó: \`reclamado_por\`; una captura mostrada dos veces), RECHAZADA (el banco no pudo responder: \`motivo_rechazo\`). No mueve dinero. ${idempotencyNote('una verificación')} En live, \`cobrador\` debe ser una cuenta registrada del comercio.`,
      ),
      inputSchema: jsonSchema(VerificarBody),
      outputSchema: jsonSchema(Verificacion),
      annotations: moneyHints(`Verificar pago móvil (${modeTag})`, false),
      toRest: post('/switch/v1/cobros/verificar'),
      structured: asObject,
    },
    {
      name: 'crear_cobro_esperado',
      title: `Esperar un pago móvil (${modeTag})`,
      description: describe(
        `Registra un cobro esperado: el cliente empuja un pago móvil a la cuenta o teléfono del comercio (\`cobrador\`). Responde \`instrucciones\` para mostrar al pagador (teléfono, banco, RIF, monto exacto y el concepto a escribir, con su código al inicio) y un \`id\`. El switch lee los créditos de la cuenta en segundo plano y pasa \`estado\` de ESPERADO a RECIBIDO, PAGO_PARCIAL, SOBREPAGO o VENCIDO (\`vence_en\`, por defecto 24 horas); cada cambio llega por webhook firmado (\`cobro_esperado.*\`). Un mismo movimiento paga un solo pedido. No mueve dinero. ${idempotencyNote('un cobro esperado')}`,
      ),
      inputSchema: jsonSchema(CobroEsperadoRequest),
      outputSchema: jsonSchema(CobroEsperado),
      annotations: moneyHints(`Cobro esperado (${modeTag})`, false),
      toRest: post('/switch/v1/cobros/esperados'),
      structured: asObject,
    },
  ];
  return tools;
}
