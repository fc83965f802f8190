/**
 * Webhook verification: the switch signs each delivery (`x-service-signature` and the Standard
 * Webhooks headers; the `webhooks` of openapi.json). The verifier is its own package,
 * `@switch-pagos/webhooks` (kit/verifiers/typescript); it is re-exported from here so a merchant
 * needs only this client. This client holds no verification code of its own.
 */
export * from '@switch-pagos/webhooks';
