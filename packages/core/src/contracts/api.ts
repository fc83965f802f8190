import type { TSchema } from '@sinclair/typebox';
import { Instrumento, NOMBRE_PATTERN } from './instrumento';
import { Monto } from './monto';
import { CobrarBody, Concepto, ConsultarBody, PagarBody, ReversoBody, TokenBody } from './requests';
import { httpTextForm, NONBLANK_TEXT_PATTERN, TEXT_PATTERN, TEXT_RULE } from './text';
import { EstadoSchema, MotivoSchema, Resultado } from './resultado';
import { BancoCatalogo, Movimiento, Movimientos, Saldo } from './bancos';
import {
  IdempotencyConflictBody,
  NotFoundBody,
  PayloadTooLargeBody,
  RateLimitedBody,
  RefusedRequestBody,
  ServiceUnavailableBody,
  UnauthorizedBody,
  UnsupportedMediaTypeBody,
  ValidationErrorBody,
} from './errors';
import { WebhookBody } from './webhook';
import { CobroEsperado, CobroEsperadoRequest, CobrosEsperadosPage, WebhookEsperadoBody } from './esperados';
import { TransaccionDetalle, TransaccionesPage, TransaccionResumen } from './transacciones';
import {
  DeliveryView,
  EndpointCreateBody,
  EndpointDeleted,
  EndpointUpdateBody,
  EndpointView,
  EndpointWithSecret,
} from './webhook-endpoints';

/**
 * The API's named schemas. The OpenAPI document publishes each under `components.schemas` by this
 * name, and every place the same schema appears becomes a `$ref` to it
 * (services/gateway/src/openapi.ts). The schemas themselves stay plain TypeBox, inline wherever they
 * are used, so validation (HTTP edge, bus, MCP) is unchanged; the names live here, beside them.
 */
export const API_SCHEMAS = {
  Instrumento,
  Monto,
  Estado: EstadoSchema,
  MotivoRechazo: MotivoSchema,
  TokenRequest: TokenBody,
  CobrarRequest: CobrarBody,
  PagarRequest: PagarBody,
  ConsultarRequest: ConsultarBody,
  ReversoRequest: ReversoBody,
  Resultado,
  BancoCatalogo,
  Saldo,
  Movimiento,
  Movimientos,
  ValidationError: ValidationErrorBody,
  UnauthorizedError: UnauthorizedBody,
  NotFoundError: NotFoundBody,
  IdempotencyConflictError: IdempotencyConflictBody,
  PayloadTooLargeError: PayloadTooLargeBody,
  UnsupportedMediaTypeError: UnsupportedMediaTypeBody,
  RefusedRequestError: RefusedRequestBody,
  RateLimitedError: RateLimitedBody,
  ServiceUnavailableError: ServiceUnavailableBody,
  WebhookEvento: WebhookBody,
  TransaccionResumen,
  Transacciones: TransaccionesPage,
  TransaccionDetalle,
  CobroEsperadoRequest,
  CobroEsperado,
  CobrosEsperados: CobrosEsperadosPage,
  WebhookCobroEsperado: WebhookEsperadoBody,
  WebhookEndpointCreateRequest: EndpointCreateBody,
  WebhookEndpointUpdateRequest: EndpointUpdateBody,
  WebhookEndpoint: EndpointView,
  WebhookEndpointWithSecret: EndpointWithSecret,
  WebhookEndpointEliminado: EndpointDeleted,
  WebhookEntrega: DeliveryView,
} as const satisfies Record<string, TSchema>;
export type ApiSchemaName = keyof typeof API_SCHEMAS;

/**
 * The HTTP form of the contracts' text patterns (./text.ts): `concepto` and `nombre` refuse control
 * and invisible characters at the HTTP edge, in the schema that validates the request and that the
 * OpenAPI document publishes. The registered bus schemas keep the contracts' own patterns.
 */
const HTTP_TEXT = new Map([
  [Concepto.pattern!, { pattern: TEXT_PATTERN, description: `1 to 35 characters: ${TEXT_RULE}` }],
  [NOMBRE_PATTERN, { pattern: NONBLANK_TEXT_PATTERN, description: `1 to 40 characters, not all blank: ${TEXT_RULE}` }],
]);

/** A contract schema as the HTTP edge validates and publishes it. */
export const httpForm = <T extends TSchema>(schema: T): T => httpTextForm(schema, HTTP_TEXT);

/** API_SCHEMAS in their HTTP form: the OpenAPI components and the routes' bodies agree. */
export const HTTP_API_SCHEMAS = Object.fromEntries(
  Object.entries(API_SCHEMAS).map(([name, schema]) => [name, httpForm(schema)]),
) as typeof API_SCHEMAS;

/** Every text pattern of the HTTP form: a 400 on one of them is explained by TEXT_RULE. */
export const HTTP_TEXT_PATTERNS: ReadonlySet<string> = new Set([...HTTP_TEXT.values()].map((v) => v.pattern));
