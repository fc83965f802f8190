import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import type { Topic } from '@switch/core/contracts/topics';
import { projectAjv } from '@switch/core/contracts/validation';
import { assertPayload } from '../schema-check';

/** What a consumer gets from the bytes of a message. */
export type Decoded = { ok: true; value: unknown; schemaId: number } | { ok: false; reason: string };

/** Confluent wire format: magic byte 0, then the schema id as a 4-byte big-endian integer, then the payload. */
const MAGIC = 0;
const HEADER_BYTES = 5;

/** Every subject's compatibility, set explicitly: a new schema version must read the data of the previous one. */
export const SUBJECT_COMPATIBILITY = COMPATIBILITY.BACKWARD;
export const subjectOf = (topicName: string): string => `${topicName}-value`;

/**
 * Encodes payloads with the JSON Schema of their topic, registered in a Confluent-compatible registry,
 * and decodes them by the schema id each message carries.
 */
export class RegistryCodec {
  private readonly registry: SchemaRegistry;
  private readonly base: string;
  /** Registration per topic name, once per process (the promise, so concurrent first publishes share it). */
  private readonly ids = new Map<string, Promise<number>>();

  constructor(url: string, clientId: string) {
    this.base = url.replace(/\/+$/, '');
    // The library compiles every writer's schema it fetches; with the project's ajv options (formats uuid,
    // date, date-time, uri; decimal precision) it accepts the schemas assertPayload checks against.
    const ajv = projectAjv();
    this.registry = new SchemaRegistry(
      { host: this.base, clientId },
      // The library types its option with its own nested ajv@7; ours is ajv@8 with the same two methods it calls.
      { [SchemaType.JSON]: { ajvInstance: ajv as never } },
    );
  }

  /** The registry id of the topic's schema, registered on first use. A failure is not cached: the next call retries. */
  schemaId(topic: Topic): Promise<number> {
    let id = this.ids.get(topic.name);
    if (!id) {
      id = this.register(topic);
      this.ids.set(topic.name, id);
      id.catch(() => this.ids.delete(topic.name));
    }
    return id;
  }

  /**
   * Refuses a payload outside the topic's schema (SchemaViolation) before anything is sent, then writes
   * the Confluent wire format itself: the library's `encode` would validate the payload a second time
   * against the very schema registered from the same topic (ajv was 3–9 % of each service's CPU).
   */
  async encode(topic: Topic, value: unknown): Promise<Buffer> {
    assertPayload(topic, value);
    const id = await this.schemaId(topic);
    const header = Buffer.alloc(HEADER_BYTES);
    header.writeUInt8(MAGIC, 0);
    header.writeInt32BE(id, 1);
    return Buffer.concat([header, Buffer.from(JSON.stringify(value))]);
  }

  /**
   * Decodes by the schema id in the message. Bytes that can never be decoded come back as `ok: false`
   * (the caller dead-letters them); a registry that cannot be reached throws, so the message is retried,
   * not thrown away.
   */
  async decode(bytes: Buffer | null): Promise<Decoded> {
    if (!bytes || bytes.length < HEADER_BYTES || bytes[0] !== MAGIC) {
      return { ok: false, reason: 'undecodable: not in the schema registry wire format (magic byte 0 + schema id)' };
    }
    const schemaId = bytes.readInt32BE(1);
    try {
      // The writer's schema must exist (fetched once per id, then cached); the payload is checked against
      // the reader's schema by the bus (assertPayload), not again against the writer's here: a writer
      // validates before it encodes, and the reader's check is the one the handler relies on.
      await this.registry.getSchema(schemaId);
      return { ok: true, value: JSON.parse(bytes.subarray(HEADER_BYTES).toString('utf8')), schemaId };
    } catch (error) {
      if (!isPermanentDecodeError(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, reason: `undecodable with schema id ${schemaId}: ${message}` };
    }
  }

  /** Readiness: the registry answers its subjects listing. */
  async ping(): Promise<void> {
    const response = await fetch(`${this.base}/subjects`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`schema registry answered ${response.status}`);
  }

  /**
   * Services starting side by side register the same subjects at the same moment; Apicurio answers
   * the one that loses the race to create a subject's rule with 409. The rule exists by then, so the
   * loser's next attempt just updates it.
   */
  private async register(topic: Topic): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.registerOnce(topic);
      } catch (error) {
        if (attempt >= 3 || !isRegistryConflict(error)) throw error;
      }
    }
  }

  private async registerOnce(topic: Topic): Promise<number> {
    const subject = subjectOf(topic.name);
    // Set the level before registering. Apicurio answers GET /config of a subject that exists without its
    // own level with its global default (NONE), which the library reports as a mismatch (INFRA.md §2).
    // For a subject that does not exist yet this is a 404; the library then registers and sets it itself.
    const put = await fetch(`${this.base}/config/${encodeURIComponent(subject)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
      body: JSON.stringify({ compatibility: SUBJECT_COMPATIBILITY }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!put.ok && put.status !== 404) {
      throw new RegistryRefusal(`schema registry refused the compatibility of ${subject}: ${put.status} ${await put.text()}`, put.status);
    }
    const { id } = await this.registry.register(
      { type: SchemaType.JSON, schema: registeredSchema(topic) },
      { subject, compatibility: SUBJECT_COMPATIBILITY },
    );
    return id;
  }
}

/**
 * The text registered for a topic. JSON.stringify drops TypeBox's symbol keys: what remains is the plain
 * JSON Schema. `$schema` is added because Apicurio only recognises a JSON Schema by it (or by top-level
 * `properties`) and refuses a top-level union ("Failed to discover artifact type from content"); draft-07
 * is what TypeBox emits and what ajv compiles by default.
 */
export const registeredSchema = (topic: Topic): string =>
  JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', ...topic.schema });

class RegistryRefusal extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** A 409 from the registry (ours or the library's ResponseError): another writer got there first. */
function isRegistryConflict(error: unknown): boolean {
  return error instanceof Error && (error as Error & { status?: number }).status === 409;
}

/** Errors that say the bytes themselves are bad; anything else (network, 5xx, timeouts) may pass. */
function isPermanentDecodeError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  switch (error.name) {
    case 'SyntaxError': // payload is not JSON
    case 'ConfluentSchemaRegistryArgumentError':
    case 'ConfluentSchemaRegistryInvalidSchemaError':
      return true;
    case 'ResponseError': // the registry does not know this schema id
      return (error as Error & { status?: number }).status === 404;
    default:
      return false;
  }
}
