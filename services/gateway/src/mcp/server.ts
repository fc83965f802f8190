import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { metrics } from '@switch/platform/telemetry/metrics';
import type { BancoCatalogo, Movimientos, Saldo, Mode } from '@switch/core/contracts/bancos';
import type { Logger } from '@switch/platform/telemetry/logger';
import type { Resultado } from '@switch/core/contracts/operaciones';
import type { RestAnswer, RestPort } from './rest';
import {
  resumenBancos,
  resumenCobroEsperado,
  resumenError,
  resumenMovimientos,
  resumenResultado,
  resumenSaldo,
  resumenVerificacion,
} from './summaries';
import type { Verificacion } from '@switch/core/contracts/verificacion';
import type { CobroEsperado } from '@switch/core/contracts/esperados';
import { switchTools, type SwitchTool, type ToolName } from './tools';

export interface McpServerDeps {
  /** The key's mode: the server lists the tools of that mode only. */
  mode: Mode;
  /** Carries each tool call out as a REST request made with the caller's own key. */
  rest: RestPort;
  /** Where each call is logged (tool and outcome, never the arguments: they may hold an OTP). */
  log?: Pick<Logger, 'info' | 'warn'>;
}

export const SERVER_INFO = { name: 'switch-pagos', version: '1.0.0' } as const;

const INSTRUCTIONS: Record<Mode, string> = {
  test: 'Switch de pagos de Venezuela en MODO TEST: ninguna herramienta mueve dinero real.',
  live: 'Switch de pagos de Venezuela en MODO LIVE: pagar, cobrar y reverso mueven DINERO REAL.',
};
const RULES =
  'Cada operación de dinero requiere una idempotency_key (UUID v4): repetir con la misma clave es seguro y devuelve la misma operación; una clave nueva es una operación nueva. Lee `estado`: ACEPTADA se liquida después (verifica con consultar); ante DESCONOCIDA consulta con `consultar` y nunca reenvíes con una clave nueva.';

/**
 * An MCP server over the merchant API for one key. Built with the SDK's low-level `Server` so the
 * tools' JSON Schemas are the REST API's TypeBox schemas as they are. Stateless: it holds nothing
 * between calls beyond the key's mode, so a new one per HTTP request costs only its construction.
 */
export function createMcpServer(deps: McpServerDeps): Server {
  const tools = switchTools(deps.mode);
  const byName = new Map<string, SwitchTool>(tools.map((t) => [t.name, t]));
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: `${INSTRUCTIONS[deps.mode]} ${RULES}` });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema: inputSchema as { type: 'object' },
      outputSchema: outputSchema as { type: 'object' },
      annotations,
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool)
      throw new McpError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}; tools: ${tools.map((t) => t.name).join(', ')}`);
    const outcome = await runTool(tool, request.params.arguments ?? {}, deps.rest);
    metrics.mcpToolCalls.inc({ tool: tool.name, outcome: outcome.label });
    deps.log?.info({ tool: tool.name, outcome: outcome.label, status: outcome.status, mode: deps.mode }, 'mcp tool call');
    return outcome.result;
  });
  return server;
}

/** A replay is said first: the agent must not take it for a second operation. */
const REPETIDA = 'Respuesta repetida: esta idempotency_key ya se había usado, así que es la misma operación de antes (no se creó otra).';

interface ToolOutcome {
  result: CallToolResult;
  /** Metric label: `ok`, the REST error code, or `unreachable`. Always a bounded set. */
  label: string;
  status: number | null;
}

async function runTool(tool: SwitchTool, args: Record<string, unknown>, rest: RestPort): Promise<ToolOutcome> {
  let answer: RestAnswer;
  try {
    answer = await rest(tool.toRest(args));
  } catch (error) {
    // Only the stdio server talks over a network: the switch may be down or the answer cut.
    const why = error instanceof Error ? error.message : String(error);
    const text = `No se pudo contactar al switch (${why}). Si era una operación de dinero su resultado es incierto: repite con la MISMA idempotency_key o consulta con \`consultar\`; nunca uses una clave nueva.`;
    return { result: { isError: true, content: [{ type: 'text', text }] }, label: 'unreachable', status: null };
  }
  if (answer.status >= 200 && answer.status < 300) {
    const structured = tool.structured(answer.body);
    const summary = summarize(tool.name, answer.body);
    return {
      result: {
        // The JSON twin of the structured content is for clients that read only text.
        content: [
          { type: 'text', text: answer.replayed ? `${REPETIDA} ${summary}` : summary },
          { type: 'text', text: JSON.stringify(structured) },
        ],
        structuredContent: structured,
        // The REST answer's `idempotent-replayed: true`, for clients that act on it.
        ...(answer.replayed ? { _meta: { 'idempotent-replayed': true } } : {}),
      },
      label: 'ok',
      status: answer.status,
    };
  }
  // A refusal is a tool error carrying the REST body as it is (VALIDATION's detail names every bad field).
  const body = answer.body && typeof answer.body === 'object' ? (answer.body as { error?: unknown }) : { error: String(answer.body) };
  const code = typeof body.error === 'string' && /^[A-Za-z_]{1,40}$/.test(body.error) ? body.error : `http_${answer.status}`;
  return {
    result: {
      isError: true,
      content: [
        { type: 'text', text: resumenError(answer.status, body) },
        { type: 'text', text: JSON.stringify(body) },
      ],
    },
    label: code,
    status: answer.status,
  };
}

function summarize(tool: ToolName, body: unknown): string {
  switch (tool) {
    case 'bancos':
      return resumenBancos(body as BancoCatalogo[]);
    case 'saldo':
      return resumenSaldo(body as Saldo);
    case 'movimientos':
      return resumenMovimientos(body as Movimientos);
    case 'verificar_pago':
      return resumenVerificacion(body as Verificacion);
    case 'crear_cobro_esperado':
      return resumenCobroEsperado(body as CobroEsperado);
    default:
      return resumenResultado(tool, body as Resultado);
  }
}
