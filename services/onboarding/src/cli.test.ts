import { describe, expect, it } from 'vitest';
import { run, toRequest, USAGE, UsageError } from './cli';

describe('onboarding command line', () => {
  it('maps each command to its admin API request', () => {
    expect(toRequest(['merchant', 'create', '--id', 'tienda', '--nombre', 'Tienda Uno'])).toEqual({
      method: 'POST',
      path: '/admin/v1/merchants',
      body: { id: 'tienda', nombre: 'Tienda Uno' },
    });
    expect(toRequest(['key', 'issue', '--merchant', 'tienda', '--mode', 'live'])).toEqual({
      method: 'POST',
      path: '/admin/v1/merchants/tienda/keys',
      body: { mode: 'live' },
    });
    expect(toRequest(['panel', 'invite', '--merchant', 'tienda', '--email', 'ana@tienda.test'])).toEqual({
      method: 'POST',
      path: '/admin/v1/merchants/tienda/panel-invites',
      body: { email: 'ana@tienda.test', role: 'owner' },
    });
    expect(toRequest(['panel', 'invite', '--merchant', 'tienda', '--email', 'b@tienda.test', '--role', 'viewer']).body).toEqual({
      email: 'b@tienda.test',
      role: 'viewer',
    });
    expect(toRequest(['panel', 'reset', '--merchant', 'tienda', '--email', 'Ana@tienda.test'])).toEqual({
      method: 'POST',
      path: '/admin/v1/merchants/tienda/panel-users/Ana%40tienda.test/password-reset',
    });
    expect(toRequest(['key', 'revoke', '--merchant', 'tienda', '--key', 'key_1'])).toEqual({
      method: 'DELETE',
      path: '/admin/v1/merchants/tienda/keys/key_1',
    });
    expect(
      toRequest([
        'webhook',
        'add',
        '--merchant',
        'tienda',
        '--mode',
        'test',
        '--url',
        'https://x.test/h',
        '--events',
        'transaccion.liquidada, transaccion.rechazada',
      ]),
    ).toEqual({
      method: 'POST',
      path: '/admin/v1/merchants/tienda/webhooks',
      body: { mode: 'test', url: 'https://x.test/h', events: ['transaccion.liquidada', 'transaccion.rechazada'] },
    });
  });

  it('maps the account commands', () => {
    expect(
      toRequest([
        'account',
        'add',
        '--merchant',
        'tienda',
        '--mode',
        'live',
        '--banco',
        'bnc',
        '--cuenta',
        '01910000000000000001',
        '--telefono',
        '04141234567',
        '--rif',
        'J123456789',
      ]),
    ).toEqual({
      method: 'POST',
      path: '/admin/v1/merchants/tienda/accounts',
      body: { mode: 'live', banco: 'bnc', cuenta: '01910000000000000001', telefono: '04141234567', rif: 'J123456789' },
    });
    expect(
      toRequest(['account', 'add', '--merchant', 'tienda', '--mode', 'test', '--banco', 'bnc', '--cuenta', '01910000000000000001']),
    ).toEqual({
      method: 'POST',
      path: '/admin/v1/merchants/tienda/accounts',
      body: { mode: 'test', banco: 'bnc', cuenta: '01910000000000000001' },
    });
    expect(toRequest(['account', 'list', '--merchant', 'tienda'])).toEqual({ method: 'GET', path: '/admin/v1/merchants/tienda/accounts' });
    expect(toRequest(['account', 'list', '--merchant', 'tienda', '--mode', 'live'])).toEqual({
      method: 'GET',
      path: '/admin/v1/merchants/tienda/accounts?mode=live',
    });
    expect(() => toRequest(['account', 'add', '--merchant', 'tienda', '--mode', 'live', '--banco', 'bnc'])).toThrow(UsageError);
  });

  it('maps the delivery and review commands', () => {
    expect(toRequest(['delivery', 'list', '--txn', 'txn_1'])).toEqual({ method: 'GET', path: '/admin/v1/transactions/txn_1/deliveries' });
    expect(toRequest(['delivery', 'redeliver', '--id', 'txn_1.v2.we_1'])).toEqual({
      method: 'POST',
      path: '/admin/v1/deliveries/txn_1.v2.we_1/redeliver',
    });
    expect(toRequest(['review', 'list'])).toEqual({ method: 'GET', path: '/admin/v1/review' });
    expect(toRequest(['secrets', 'reseal'])).toEqual({ method: 'POST', path: '/admin/v1/secrets/reseal', body: {} });
  });

  it('maps the dead-letter commands', () => {
    expect(toRequest(['dead-letters', 'list'])).toEqual({ method: 'GET', path: '/admin/v1/dead-letters' });
    expect(toRequest(['dead-letters', 'list', '--topic', 'switch.router.inbox.v2'])).toEqual({
      method: 'GET',
      path: '/admin/v1/dead-letters?topic=switch.router.inbox.v2',
    });
    expect(toRequest(['dead-letters', 'redrive', '--topic', 'switch.router.inbox.v2'])).toEqual({
      method: 'POST',
      path: '/admin/v1/dead-letters/redrive',
      body: { topic: 'switch.router.inbox.v2' },
    });
    expect(toRequest(['dead-letters', 'redrive', '--topic', 'switch.router.inbox.v2', '--id', '0:4, 0:7'])).toEqual({
      method: 'POST',
      path: '/admin/v1/dead-letters/redrive',
      body: { topic: 'switch.router.inbox.v2', ids: ['0:4', '0:7'] },
    });
    expect(() => toRequest(['dead-letters', 'redrive', '--id', '0:4'])).toThrow(/--topic is required/);
    expect(USAGE).toContain('dead-letters list');
    expect(USAGE).toContain('dead-letters redrive --topic');
  });

  it('refuses unknown commands and missing flags with a usage error', () => {
    expect(() => toRequest(['merchant', 'delete'])).toThrow(UsageError);
    expect(() => toRequest(['key', 'issue', '--merchant', 'tienda'])).toThrow(/--mode is required/);
    expect(() => toRequest(['key', 'issue', '--merchant'])).toThrow(/needs a value/);
  });

  it('sends the operator token and reports a refused request as not ok', async () => {
    const seen: { url: string; auth: string | null }[] = [];
    const fake = (async (url: string, init: RequestInit) => {
      seen.push({ url, auth: new Headers(init.headers).get('authorization') });
      return new Response(JSON.stringify({ error: 'NOT_FOUND' }), { status: 404 });
    }) as unknown as typeof fetch;
    const result = await run(
      ['key', 'list', '--merchant', 'nadie'],
      { url: 'http://127.0.0.1:1', adminToken: 'operator-token-123456' },
      fake,
    );
    expect(result.ok).toBe(false);
    expect(JSON.parse(result.output)).toEqual({ error: 'NOT_FOUND' });
    expect(seen).toEqual([{ url: 'http://127.0.0.1:1/admin/v1/merchants/nadie/keys', auth: 'Bearer operator-token-123456' }]);
  });
});
