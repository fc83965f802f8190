import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from './logger';

function capture() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

describe('createLogger', () => {
  it('redacts secrets wherever the known paths put them', () => {
    const out = capture();
    const log = createLogger('t', 'info', out.stream);
    log.info({ req: { headers: { 'x-switch-key': 'demo:sk_test_AAAA1111', authorization: 'Bearer TOKEN1111' } } }, 'request');
    log.info({ headers: { 'x-switch-key': 'demo:sk_test_BBBB2222', authorization: 'Bearer TOKEN2222' } }, 'outbound');
    log.info(
      { body: { otp: '73915248' }, endpoint: { secret: 'whsec_CCCC3333', secretHash: 'HASH4444' }, key: { apiKey: 'sk_live_DDDD5555' } },
      'nested',
    );
    log.info({ otp: '11223344', secret: 'whsec_EEEE6666' }, 'top level');
    log.info({ order: { request: { otp: '55667788' } }, endpoint: { sealedSecret: 'sb1.FFFF7777' } }, 'an order, an endpoint');
    const text = out.text();
    for (const s of [
      'sk_test_AAAA1111',
      'TOKEN1111',
      'sk_test_BBBB2222',
      'TOKEN2222',
      '73915248',
      'whsec_CCCC3333',
      'HASH4444',
      'sk_live_DDDD5555',
      '11223344',
      'whsec_EEEE6666',
      '55667788',
      'sb1.FFFF7777',
    ]) {
      expect(text.includes(s), s).toBe(false);
    }
    expect(text.match(/\[redacted\]/g)?.length).toBe(12);
    const first = JSON.parse(text.split('\n')[0]!);
    expect(first).toMatchObject({ service: 't', name: 't', msg: 'request' });
  });

  it('honours the level', () => {
    const out = capture();
    const log = createLogger('t', 'warn', out.stream);
    log.info('hidden');
    log.warn('shown');
    expect(out.text()).not.toContain('hidden');
    expect(out.text()).toContain('shown');
  });
});
