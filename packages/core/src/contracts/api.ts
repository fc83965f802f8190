import type { TSchema } from '@sinclair/typebox';
import { Instrumento, Monto } from './fields';
import {
  CobrarBody,
  ConsultarBody,
  httpForm,
  PagarBody,
  ReversoBody,
  TokenBody,
  EstadoSchema,
  MotivoSchema,
  Resultado,
} from './operaciones';
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
import { Verificacion, VerificarBody } from './verificacion';
import { PagoMovilEntrante, PagoMovilEntranteBody } from './sandbox-pago-movil';
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
  VerificarRequest: VerificarBody,
  Verificacion,
  PagoMovilEntranteRequest: PagoMovilEntranteBody,
  PagoMovilEntrante,
} as const satisfies Record<string, TSchema>;
export type ApiSchemaName = keyof typeof API_SCHEMAS;

/** API_SCHEMAS in their HTTP form: the OpenAPI components and the routes' bodies agree. */
export const HTTP_API_SCHEMAS = Object.fromEntries(
  Object.entries(API_SCHEMAS).map(([name, schema]) => [name, httpForm(schema)]),
) as typeof API_SCHEMAS;
