import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Type, type TSchema } from '@sinclair/typebox';
import { BankRequestMessage, GatewayReplyMessage } from '@switch/core/contracts/topics';
import { RegistryCodec } from './registry';

const registryUrl = process.env.SCHEMA_REGISTRY_URL ?? '';

/** A union without its branches that mention `creditos`: the schema before the credits read. */
const withoutCredits = (union: TSchema): TSchema => {
  const anyOf = (union as unknown as { anyOf: TSchema[] }).anyOf.filter((s) => !JSON.stringify(s).includes('creditos'));
  return Type.Union(anyOf);
};

/**
 * The credits read adds a branch to the bank requests' union and to the gateway replies' result: a
 * registry holding the schemas without it (BACKWARD compatibility) takes the new versions.
 */
describe('the credits read on the bus', () => {
  it('registers over the previous bank request and gateway reply schemas (BACKWARD)', async () => {
    if (!registryUrl) throw new Error('SCHEMA_REGISTRY_URL is not set: run `npm run infra:up`, then `source .cache/infra.env`');
    // A codec remembers a topic's id by name: each version is registered by a codec of its own.
    const register = (name: string, schema: TSchema) =>
      new RegistryCodec(registryUrl, 'schema-check').schemaId({ name, schema, partitions: 1 });
    const prefix = `creditos.${randomUUID().slice(0, 8)}`;
    const before = withoutCredits(BankRequestMessage);
    expect(JSON.stringify(before)).not.toContain('creditos');
    const bankBefore = await register(`${prefix}.bank`, before);
    expect(await register(`${prefix}.bank`, BankRequestMessage)).not.toBe(bankBefore);
    const result = (GatewayReplyMessage as unknown as { properties: { result: TSchema } }).properties.result;
    const replyBefore = Type.Object({ ...GatewayReplyMessage.properties, result: withoutCredits(result) });
    const replyBeforeId = await register(`${prefix}.reply`, replyBefore);
    expect(await register(`${prefix}.reply`, GatewayReplyMessage)).not.toBe(replyBeforeId);
  });
});
