import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { createLogger } from '@switch/platform/telemetry/logger';
import { createMerchant, issueKey } from '@switch/usecases/onboarding';
import { idempotencyScope } from '@switch/core/contracts/operaciones';
import { CUENTA_ORDENANTE, pagarBody, startTestSwitch, tokenBody, type TestSwitch } from './helpers';

const BIN = resolve(__dirname, '../../services/gateway/bin/switch-mcp.js');
const MONEY_TOOLS = ['pagar', 'cobrar_token', 'cobrar', 'reverso'];
const READ_TOOLS = ['bancos', 'consultar', 'saldo', 'movimientos'];
/** Tools that keep a record but move no money. */
const RECORD_TOOLS = ['verificar_pago', 'crear_cobro_esperado'];

/** SPEC 5.5: the tool-protocol server with the same key, through the SDK's own clients. */
describe('MCP server (Streamable HTTP at /mcp and stdio)', () => {
  let t: TestSwitch;
  let base: string;
  let logged = '';
  const clients: Client[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write: (chunk: Buffer, _enc, done) => {
        logged += chunk.toString();
        done();
      },
    });
    t = await startTestSwitch({ log: createLogger('test', 'info', sink) });
    base = await t.sw.gateway.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await t.close();
  });

  async function connect(headers: Record<string, string> = { 'x-switch-key': t.key }): Promise<Client> {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }
  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const texts = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  /** The REST body a tool error carries beside its summary. */
  const errorBody = (r: CallToolResult) => JSON.parse((r.content[1] as { text: string }).text) as Record<string, unknown>;

  it('lists every merchant tool with the REST schemas, idempotency_key required on money tools, and test-mode hints', async () => {
    const { tools } = await (await connect()).listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()].sort()).toEqual([...MONEY_TOOLS, ...READ_TOOLS, ...RECORD_TOOLS].sort());
    expect(byName.get('verificar_pago')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(byName.get('verificar_pago')!.inputSchema.required).toEqual(
      expect.arrayContaining(['idempotency_key', 'referencia', 'fecha', 'cobrador']),
    );
    for (const name of MONEY_TOOLS) {
      const tool = byName.get(name)!;
      expect(tool.inputSchema.required, name).toContain('idempotency_key');
      expect(tool.description, name).toMatch(/MISMA idempotency_key es seguro.*misma operación/);
      expect(tool.description, name).toMatch(/idempotency_key NUEVA es un \w+ nuevo/);
      expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true });
      expect(tool.outputSchema?.required).toEqual(expect.arrayContaining(['id', 'estado', 'banco_usado', 'motivo_rechazo', 'intentos']));
    }
    for (const name of READ_TOOLS) expect(byName.get(name)!.annotations?.readOnlyHint, name).toBe(true);
    for (const tool of tools) {
      expect(tool.title).toMatch(/TEST, sin dinero real/);
      expect(tool.description).toMatch(/^MODO TEST/);
      expect(tool.outputSchema?.type).toBe('object');
    }
    // One source of truth: the pagar tool takes what POST /pagar takes.
    const pagar = byName.get('pagar')!;
    expect(Object.keys(pagar.inputSchema.properties ?? {}).sort()).toEqual(
      ['idempotency_key', 'monto', 'concepto', 'canal', 'banco_preferido', 'ordenante', 'beneficiario', 'proposito', 'via'].sort(),
    );
    expect(byName.get('consultar')!.inputSchema.required).toEqual(['id']);
    expect(byName.get('movimientos')!.inputSchema.required).toEqual(['cuenta', 'desde']);
  });

  it('crear_cobro_esperado takes the REST body, answers the expected payment and tells what to show the payer', async () => {
    const client = await connect();
    const tool = (await client.listTools()).tools.find((x) => x.name === 'crear_cobro_esperado')!;
    expect(tool.inputSchema.required).toEqual(expect.arrayContaining(['idempotency_key', 'monto', 'concepto', 'orden_id', 'cobrador']));
    expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    const r = await call(client, 'crear_cobro_esperado', {
      idempotency_key: randomUUID(),
      monto: { valor: 45.5, moneda: 'VES' },
      concepto: 'Pedido MCP',
      orden_id: 'mcp-1',
      cobrador: { tipo: 'cuenta', valor: '01910000000000000777', banco: '0191', identificacion: 'J123456789', nombre: 'Tienda' },
    });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ estado: 'ESPERADO', monto: 45.5, orden_id: 'mcp-1' });
    expect(texts(r)).toMatch(/monto exacto 45\.50 VES, concepto "E[A-Z2-9]{6} Pedido MCP"/);
  });

  it('a live key lists the live tools: money tools destructive, titles say real money', async () => {
    const { switchKey } = await issueKey(t.sw.store, t.merchantId, 'live');
    const { tools } = await (await connect({ 'x-switch-key': switchKey })).listTools();
    const byName = new Map<string, Tool>(tools.map((tool) => [tool.name, tool]));
    for (const name of ['pagar', 'cobrar', 'reverso']) expect(byName.get(name)!.annotations?.destructiveHint, name).toBe(true);
    expect(byName.get('cobrar_token')!.annotations?.destructiveHint).toBe(false);
    for (const tool of tools) expect(tool.title).toMatch(/LIVE, dinero real/);
  });

  it('pays out by pago móvil: LIQUIDADA, the Resultado as REST gives it, a Spanish summary', async () => {
    const client = await connect();
    const body = pagarBody({ via: 'pago_movil' });
    const r = await call(client, 'pagar', body);
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      estado: 'LIQUIDADA',
      banco_usado: 'bnc',
      referencia_banco: `TEST-${body.idempotency_key.slice(0, 8)}`,
      intentos: 1,
    });
    expect(texts(r)).toMatch(/LIQUIDADA.*final/);
    // The same request through REST is the same operation, byte for byte.
    const rest = await t.post('/switch/v1/pagar', body);
    expect(rest.json()).toEqual(r.structuredContent);
  });

  it('verificar_pago: a payment the sandbox made arrive is VERIFICADO once, then YA_RECLAMADO, with Spanish summaries', async () => {
    const client = await connect();
    const cobrador = { tipo: 'cuenta', valor: '01910000000000000042', banco: '0191', identificacion: 'J123456789', nombre: 'Tienda' };
    const payer = { banco_pagador: '0102', telefono_pagador: '04141234567' };
    const arrived = await t.post('/switch/v1/sandbox/pago-movil-entrante', {
      monto: { valor: 42.5, moneda: 'VES' },
      ...payer,
      cobrador,
      // Sent "now" from 23:30 Caracas on, it would be booked tomorrow, a day not read yet.
      hora: '00:00',
    });
    expect(arrived.statusCode, arrived.body).toBe(200);
    const { referencia, fecha } = arrived.json();
    const args = () => ({ idempotency_key: randomUUID(), monto: { valor: 42.5, moneda: 'VES' }, ...payer, referencia, fecha, cobrador });
    const first = await call(client, 'verificar_pago', args());
    expect(first.structuredContent).toMatchObject({ estado: 'VERIFICADO', monto_recibido: 42.5 });
    expect(texts(first)).toMatch(/VERIFICADO.*entregar el pedido/);
    const second = await call(client, 'verificar_pago', args());
    expect(second.structuredContent).toMatchObject({ estado: 'YA_RECLAMADO', reclamado_por: { id: first.structuredContent!.id } });
    expect(texts(second)).toMatch(/YA_RECLAMADO/);
  });

  it('collects: cobrar_token then cobrar with the same key, two operations', async () => {
    const client = await connect();
    const token = tokenBody();
    const t1 = await call(client, 'cobrar_token', token);
    expect(t1.structuredContent).toMatchObject({ estado: 'ACEPTADA', banco_usado: 'bnc' });
    expect(texts(t1)).toMatch(/OTP solicitado.*`cobrar` con la MISMA idempotency_key/);
    const cobro = await call(client, 'cobrar', { ...token, otp: '12345678' });
    expect(cobro.structuredContent).toMatchObject({ estado: 'ACEPTADA' });
    expect(cobro.structuredContent!.id).not.toBe(t1.structuredContent!.id);
    expect(texts(cobro)).toMatch(/cobro exitoso.*consultar/);
  });

  it('queries and reverses through tools; consultar settles an ACEPTADA payout', async () => {
    const client = await connect();
    const pago = await call(client, 'pagar', pagarBody({ via: 'credito_inmediato' }));
    expect(pago.structuredContent).toMatchObject({ estado: 'ACEPTADA' });
    expect(texts(pago)).toMatch(/se liquida después.*`consultar`/);
    const id = pago.structuredContent!.id as string;
    const q = await call(client, 'consultar', { id });
    expect(q.structuredContent).toMatchObject({ id, estado: 'LIQUIDADA' });
    const rev = await call(client, 'reverso', { idempotency_key: randomUUID(), id });
    expect(rev.isError).toBeFalsy();
    expect(rev.structuredContent).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'NO_SOPORTADO' });
    expect(texts(rev)).toMatch(/NO_SOPORTADO: operación no soportada.*flujo alterno/);
  });

  it('bancos, saldo and movimientos answer what REST answers', async () => {
    const client = await connect();
    const bancos = await call(client, 'bancos', {});
    expect((bancos.structuredContent as { bancos: unknown }).bancos).toEqual((await t.get('/switch/v1/bancos')).json());
    const saldo = await call(client, 'saldo', { cuenta: CUENTA_ORDENANTE });
    expect(saldo.isError, texts(saldo)).toBeFalsy();
    expect(saldo.structuredContent).toMatchObject({ cuenta: CUENTA_ORDENANTE, moneda: 'VES' });
    const today = new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10);
    const movs = await call(client, 'movimientos', { cuenta: CUENTA_ORDENANTE, desde: today, limite: 5 });
    expect(movs.isError, texts(movs)).toBeFalsy();
    expect(movs.structuredContent).toMatchObject({ cuenta: CUENTA_ORDENANTE, desde: today });
  });

  it('the same idempotency key through REST first and MCP after is one operation', async () => {
    const body = pagarBody({ via: 'credito_inmediato' });
    const before = t.footprint();
    const rest = (await t.post('/switch/v1/pagar', body)).json();
    const mcp = await call(await connect(), 'pagar', body);
    expect(mcp.structuredContent).toEqual(rest);
    // The tool result says it is a replay, as REST's `idempotent-replayed: true` does.
    expect(mcp._meta).toEqual({ 'idempotent-replayed': true });
    expect((mcp.content[0] as { text: string }).text).toMatch(/^Respuesta repetida/);
    await t.settle();
    expect(t.footprint().transactions - before.transactions).toBe(1);
    // Another body under the same key is refused as on REST.
    const conflict = await call(await connect(), 'pagar', { ...body, concepto: 'otro' });
    expect(conflict.isError).toBe(true);
    expect(errorBody(conflict).error).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('bad arguments: a tool error naming every bad field, the REST 400 detail, nothing stored', async () => {
    const client = await connect();
    const bad = pagarBody({ monto: { valor: -5, moneda: 'USD' }, beneficiario: undefined, via: 'fax' });
    const rest = await t.post('/switch/v1/pagar', bad);
    expect(rest.statusCode).toBe(400);
    const before = t.footprint();
    const r = await call(client, 'pagar', bad);
    expect(r.isError).toBe(true);
    expect(errorBody(r)).toEqual(rest.json());
    const detail = (rest.json() as { detail: Record<string, string> }).detail;
    expect(Object.keys(detail)).toEqual(expect.arrayContaining(['monto.valor', 'monto.moneda', 'beneficiario', 'via']));
    for (const field of Object.keys(detail)) expect(texts(r)).toContain(field);
    await t.expectNothingSince(before);
    expect(await t.sw.store.idempotency.get(idempotencyScope(t.merchantId, 'test', 'pagar', bad.idempotency_key))).toBeNull();
    const noArgs = await call(client, 'cobrar', {});
    expect(Object.keys((errorBody(noArgs) as { detail: object }).detail)).toEqual(
      expect.arrayContaining(['idempotency_key', 'monto', 'cobrador', 'pagador', 'otp']),
    );
  });

  it("another merchant's transaction is NOT_FOUND", async () => {
    await createMerchant(t.sw.store, { id: 'otro', nombre: 'Otro' });
    const { switchKey } = await issueKey(t.sw.store, 'otro', 'test');
    const theirs = (await t.post('/switch/v1/pagar', pagarBody(), switchKey)).json();
    const r = await call(await connect(), 'consultar', { id: theirs.id });
    expect(r.isError).toBe(true);
    expect(errorBody(r).error).toBe('NOT_FOUND');
    expect(texts(r)).toMatch(/NOT_FOUND/);
  });

  it('wrong, missing, malformed and revoked keys: HTTP 401 with the SPEC body on every method', async () => {
    const { record, switchKey: revoked } = await issueKey(t.sw.store, t.merchantId, 'test');
    await t.sw.store.apiKeys.revoke(record.id, new Date().toISOString());
    const secret = t.key.slice(t.key.indexOf(':') + 1);
    const refused: Record<string, string>[] = [
      {},
      { 'x-switch-key': `${t.key.slice(0, -4)}XXXX` },
      { 'x-switch-key': secret },
      { 'x-switch-key': revoked },
      { authorization: `Bearer ${revoked}` },
      { authorization: `Basic ${t.key}` },
    ];
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    for (const headers of refused) {
      for (const method of ['POST', 'GET', 'DELETE']) {
        const res = await fetch(`${base}/mcp`, {
          method,
          headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          ...(method === 'POST' ? { body: JSON.stringify(init) } : {}),
        });
        expect(res.status, `${method} ${JSON.stringify(headers)}`).toBe(401);
        expect(await res.text()).toBe('{"error":"unauthorized"}');
      }
    }
    await expect(connect({ 'x-switch-key': revoked })).rejects.toThrow(/unauthorized/);
  });

  it('accepts Authorization: Bearer <merchant>:<secret>; GET and DELETE are 405 (stateless)', async () => {
    const r = await call(await connect({ authorization: `Bearer ${t.key}` }), 'bancos', {});
    expect(r.isError).toBeFalsy();
    const raw = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${t.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-request-id': 'agente-42',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'consultar', arguments: { id: 'txn_nope' } } }),
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('x-request-id')).toBe('agente-42');
    const rpc = (await raw.json()) as { id: number; result: CallToolResult };
    expect(rpc.id).toBe(7);
    expect(rpc.result.isError).toBe(true);
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${base}/mcp`, { method, headers: { 'x-switch-key': t.key, accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('counts tool calls by tool and outcome, and logs them without secrets', async () => {
    const metrics = (await t.operator({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/switch_mcp_tool_calls_total\{tool="pagar",outcome="ok"\} [1-9]/);
    expect(metrics).toMatch(/switch_mcp_tool_calls_total\{tool="pagar",outcome="VALIDATION"\} [1-9]/);
    expect(metrics).toMatch(/switch_mcp_tool_calls_total\{tool="consultar",outcome="NOT_FOUND"\} [1-9]/);
    expect(metrics).toMatch(/http_requests_total\{service="gateway",route="\/mcp",method="POST",status_code="200"\} [1-9]/);
    expect(logged).toMatch(/"msg":"mcp tool call"/);
    expect(logged).toMatch(/"tool":"pagar"/);
    const secret = t.key.slice(t.key.indexOf(':') + 1);
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain('12345678"'); // the OTP of the collection
  });

  describe('stdio (the switch-mcp bin against the running switch)', () => {
    it('lists the tools, pays out, and the same key through REST is the same operation', async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN],
        env: { ...process.env, SWITCH_URL: base, SWITCH_KEY: t.key } as Record<string, string>,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'desktop-agent', version: '1.0.0' });
      await client.connect(transport);
      clients.push(client);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...MONEY_TOOLS, ...READ_TOOLS, ...RECORD_TOOLS].sort());
      const body = pagarBody({ via: 'pago_movil' });
      const r = await call(client, 'pagar', body);
      expect(r.structuredContent).toMatchObject({ estado: 'LIQUIDADA' });
      expect(r._meta).toBeUndefined();
      // A retry through the remote REST port is marked a replay too.
      expect((await call(client, 'pagar', body))._meta).toEqual({ 'idempotent-replayed': true });
      expect((await t.post('/switch/v1/pagar', body)).json()).toEqual(r.structuredContent);
      const q = await call(client, 'consultar', { id: 'txn_nope' });
      expect(q.isError).toBe(true);
      expect(errorBody(q).error).toBe('NOT_FOUND');
      const bad = await call(client, 'pagar', { ...body, idempotency_key: 'no-uuid' });
      expect(errorBody(bad)).toEqual({ error: 'VALIDATION', detail: { idempotency_key: 'must be a UUID' } });
    });

    it('refuses to start with a wrong or malformed key, saying why', async () => {
      // Asynchronous: the switch answering the bin's key check runs in this very process.
      const run = (key: string) =>
        new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
          const child = spawn(process.execPath, [BIN], {
            env: { ...process.env, SWITCH_URL: base, SWITCH_KEY: key },
            stdio: ['pipe', 'pipe', 'pipe'],
          });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
          child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
          child.once('exit', (status) => done({ status, stdout, stderr }));
          setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
        });
      const wrong = await run(`${t.key.slice(0, -4)}XXXX`);
      expect(wrong.status).toBe(1);
      expect(wrong.stderr).toMatch(/refused SWITCH_KEY \(401 unauthorized\)/);
      expect(wrong.stdout).toBe('');
      const malformed = await run('not-a-key');
      expect(malformed.status).toBe(1);
      expect(malformed.stderr).toMatch(/SWITCH_KEY must be set/);
    });
  });

  it('rate limits key on the merchant, not on the injected request: REST and MCP calls share one budget', async () => {
    const limited = await startTestSwitch({ config: { rateLimitPerMinute: 3 } });
    try {
      const url = await limited.sw.gateway.app.listen({ host: '127.0.0.1', port: 0 });
      const client = async (key: string) => {
        const c = new Client({ name: 'rate', version: '1' });
        await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { 'x-switch-key': key } } }));
        clients.push(c);
        return c;
      };
      for (let i = 0; i < 3; i++) expect((await limited.get('/switch/v1/bancos')).statusCode).toBe(200);
      const r = await call(await client(limited.key), 'bancos', {});
      expect(r.isError).toBe(true);
      expect(errorBody(r).error).toBe('RATE_LIMITED');
      // Every injected request comes from the same address; another merchant still has its own budget.
      await createMerchant(limited.sw.store, { id: 'vecino', nombre: 'Vecino' });
      const { switchKey } = await issueKey(limited.sw.store, 'vecino', 'test');
      expect((await call(await client(switchKey), 'bancos', {})).isError).toBeFalsy();
    } finally {
      await limited.close();
    }
  });
});
