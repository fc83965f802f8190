import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createTestMerchant, isolatedRun, reportServicesOnFailure, type ServiceProcess, startService, stopAllServices } from './processes';

/**
 * The MCP endpoint of a gateway process on real Kafka and MongoDB: an agent pays out and queries
 * through tools, with the key the merchant API uses. Only the services the two calls need.
 */
const RUN = isolatedRun('mcp');
const ADMIN = RUN.adminToken;
const env = {
  ...RUN.env,
  SWITCH_QUERY_TIMEOUT_MS: '15000',
};

describe('end to end: MCP over Streamable HTTP on a gateway process', () => {
  let gateway: ServiceProcess;
  let client: Client;

  beforeAll(async () => {
    RUN.requireInfra();
    await Promise.all([startService('router', env), startService('bank-sim', env)]);
    gateway = await startService('gateway', env);
    const { key } = await createTestMerchant(gateway, ADMIN, 'agente', 'Agente MCP');
    client = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${gateway.port}/mcp`), {
        requestInit: { headers: { 'x-switch-key': key } },
      }),
    );
  });

  afterAll(async () => {
    await client?.close();
    await stopAllServices();
  });

  reportServicesOnFailure();

  it('pagar (credito_inmediato) answers ACEPTADA, consultar settles it to LIQUIDADA', async () => {
    const pago = (await client.callTool({
      name: 'pagar',
      arguments: {
        idempotency_key: randomUUID(),
        monto: { valor: 12.34 },
        concepto: 'e2e mcp',
        ordenante: { tipo: 'cuenta', valor: '01910000000000000001', banco: '0191', identificacion: 'J123456789', nombre: 'Comercio E2E' },
        beneficiario: { tipo: 'telefono', valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' },
        via: 'credito_inmediato',
      },
    })) as CallToolResult;
    expect(pago.isError, JSON.stringify(pago.content)).toBeFalsy();
    expect(pago.structuredContent).toMatchObject({ estado: 'ACEPTADA', banco_usado: 'bnc' });
    const id = pago.structuredContent!.id as string;
    const consulta = (await client.callTool({ name: 'consultar', arguments: { id } })) as CallToolResult;
    expect(consulta.structuredContent).toMatchObject({ id, estado: 'LIQUIDADA' });
  });
});
