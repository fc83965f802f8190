/**
 * Generated from the Switch de pagos OpenAPI document (/openapi.json) by openapi-typescript.
 * Do not edit: run `npm run build && npm run -w @switch-pagos/client generate`.
 */

export interface paths {
    "/switch/v1/cobrar/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Request an OTP from the payer bank
         * @description ACEPTADA means the OTP was requested and sent to the payer; it is valid about 120 s. Reuse the same idempotency_key in /cobrar, after this answer. A key a cobrar without token already took is refused with 409 IDEMPOTENCY_CONFLICT. In test mode the OTP is simulated and no message is sent. A token moves no money: it reserves nothing of the live daily limit or the per-payer velocity budget (its cobrar does, once).
         */
        post: operations["cobrarToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/cobrar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Collect from the payer with an OTP
         * @description Immediate debit of the payer. LIQUIDADA and ACEPTADA both count as a successful collection; OTP_INVALIDO asks for a new token. Under the idempotency_key of a token, the cobrar must repeat its monto, cobrador and pagador (else 422 TOKEN_MISMATCH), and runs only once that token is recorded (else 409 TOKEN_EN_CURSO: retry with the same key). A cobrar without token (an OTP captured by the caller) takes its key: a token sent later under that key is refused with 409 IDEMPOTENCY_CONFLICT. Live: it goes to the bank of its token with your registered account there (none: RECHAZADA BANCO_NO_DISPONIBLE), and one collection counts once against the daily limit (EXCEDE_LIMITE) and the velocity budget.
         */
        post: operations["cobrar"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/pagar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay a beneficiary
         * @description credito_inmediato answers ACEPTADA and settles later (LIQUIDADA); pago_movil (phone destination only) settles at once. A cuenta destination always goes by credito_inmediato. Live: the payout goes only to a bank where you hold a registered account and leaves that account; if the bank provably never got it (outage), it moves to the next such bank (`intentos`, `banco_usado`), paid from your account there, and with none left it is RECHAZADA BANCO_NO_DISPONIBLE. It counts once against the daily limit (EXCEDE_LIMITE).
         */
        post: operations["pagar"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/reverso": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reverse an operation
         * @description Names the operation to reverse by `id`. On rails without cancellation it answers RECHAZADA with NO_SOPORTADO. An id of another merchant or mode is 404. An operation has at most one reverso: once one exists, another reverso of it with a new idempotency_key is refused with 409 REVERSO_EXISTENTE naming it in `reverso` (query that one; nothing is stored or sent), and a repeat with the same key answers the same reverso. A reverso refused before any bank saw it (RECHAZADA with `intentos` 0, or every bank answering it never got the order) frees the operation for a later reverso. The reversed operation's detail (/transacciones/{id}) names its reverso in `reverso`; the reverso's webhook carries `operacion: reverso`, `reverso_de` and the amount reversed.
         */
        post: operations["reverso"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/consultar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Query an operation
         * @description Current state; an operation still open at the bank is asked about first. Unknown id → 404.
         */
        post: operations["consultar"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/bancos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Enabled banks of the key mode
         * @description Moves no money; usable to check a key. In test mode, a bank whose test route answers through its emulator (`npm start`, `npm run stack`, the test deployment) also lists `sandbox`: the cents of `monto.valor` that provoke each outcome when the request names that bank in `banco_preferido` (docs/sandbox.md).
         */
        get: operations["listarBancos"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/saldo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Balance of a collecting account
         * @description Read-only, both modes. In test mode the figures come from the bank test environment or the simulated bank.
         */
        get: operations["consultarSaldo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/movimientos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Statement of an account, for reconciliation
         * @description Movements from `desde` to `hasta` (default today), oldest first, at most 31 days per request, paged by `limite` and `cursor` (follow `siguiente` until null). A statement lists only the caller's own movements in every mode: in test mode, those of the caller's own operations (a page may then hold fewer than `limite`).
         */
        get: operations["listarMovimientos"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/cobros/verificar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify a pago móvil a payer says they sent
         * @description Asks the receiving bank for the movement (by reference where the bank searches, else the statement of that day and the next: late-night payments are booked the next day) and answers `estado`. VERIFICADO claims the movement for this verification: each bank movement verifies one payment only, so the same receipt shown twice answers YA_RECLAMADO naming the holder. Repeat with the same idempotency_key to get the same answer (VERIFICADO, MONTO_DISTINTO and YA_RECLAMADO are kept; NO_ENCONTRADO and RECHAZADA ask the bank again); the same key with another body is 409 IDEMPOTENCY_CONFLICT. Live: `cobrador` must be one of your registered accounts (else 422 ACCOUNT_NOT_REGISTERED, nothing asked). Test: only the payments your sandbox made arrive (POST /sandbox/pago-movil-entrante). Matching rules per bank: docs/pago-movil.md.
         */
        post: operations["verificarPago"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/sandbox/pago-movil-entrante": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test mode: make a payer's pago móvil arrive in your account
         * @description Test keys only (a live key gets 404). The receiving bank of `cobrador` (its emulator, or the simulated bank) books the payment as that bank would and serves it through its own statement, so POST /cobros/verificar reads it exactly as in live. Answers what the payer's receipt shows (`referencia`, `fecha`, `hora`) and the bank's booking (`fecha_banco`: the next day for a payment from 23:30 on). Try the tricky cases with it: verify with the last digits of `referencia` only, with another amount, the day after, or twice.
         */
        post: operations["simularPagoMovilEntrante"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/transacciones": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List operations
         * @description Newest first. Filters combine (and); `desde`/`hasta` are Venezuelan calendar days (UTC-4), both inclusive. Pass `siguiente` as `cursor` for the next page. Operations of other merchants or of the other mode are never listed.
         */
        get: operations["listarTransacciones"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/transacciones.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export operations as CSV
         * @description The list's filters (no page size, no cursor), every matching operation of the key's merchant and mode, newest first, streamed as CSV with the list's field names as header. `formato=es` (default): `;` between fields, `1.719,83`, times in Caracas time, UTF-8 with a byte order mark, for a spreadsheet in Spanish; `formato=numerico`: `,`, `1719.83`, ISO 8601 UTC. Text that a spreadsheet would run as a formula starts with `'`.
         */
        get: operations["exportarTransacciones"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/transacciones/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One operation in detail
         * @description The Resultado as /consultar answers it (without asking the bank), the request, every state change with its cause, time and bank data, the attempts and the reconciler evidence. A reversed operation names its one reverso in `reverso`; a reverso names its original in `reverso_de`. Another merchant or mode: 404. In test mode, `txn_ejemplo` is the sandbox example operation.
         */
        get: operations["detalleTransaccion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/cobros/esperados": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List expected payments
         * @description Newest first, of the key's merchant and mode only, optionally of one `estado`. Pass `siguiente` as `cursor` for the next page.
         */
        get: operations["listarCobrosEsperados"];
        put?: never;
        /**
         * Await a pago móvil from a payer
         * @description Answers `instrucciones` to show the payer (the merchant's phone, bank, account, RIF, the exact amount and the concept to write, code first) and an id. The switch reads the receiving account's new credits in the background and moves `estado` from ESPERADO to RECIBIDO, PAGO_PARCIAL (still open for the rest), SOBREPAGO or VENCIDO, each change announced by a signed webhook (`cobro_esperado.*`). A credit pays the payment whose code its concept carries; without the code, only the exact amount of the oldest waiting payment of that account. Each credit pays one order only: one a verification (`/cobros/verificar`) claimed is never counted here. `cobrador`: live, a registered account of the caller or the phone of one (else 422 ACCOUNT_NOT_REGISTERED); test, the account (tipo cuenta). `vence_en`: in the future, at most 30 days ahead (default 24 hours after creation). The same `idempotency_key` with the same body answers the same payment (header `x-idempotent-replayed`); with another body, 409 IDEMPOTENCY_CONFLICT.
         */
        post: operations["crearCobroEsperado"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/cobros/esperados/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One expected payment
         * @description Its state, what was received, the credits that paid it and every change with its reason. Another merchant or mode: 404. In test mode, `esp_ejemplo` is the sandbox example, paid in full.
         */
        get: operations["detalleCobroEsperado"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description The endpoints of the key mode; secrets are never listed.
         */
        get: operations["listarWebhooks"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description The answer carries the signing `secret`, the only time it is shown. In both modes the URL must resolve to a public address, unless the operator allowed local receivers, and never to a port of the switch itself (422 DESTINATION_REFUSED otherwise); in live mode it must be https. At most 10 endpoints per mode (422 ENDPOINT_LIMIT: delete one first).
         */
        post: operations["crearWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description No further deliveries; its past deliveries stay listed by transaction.
         */
        delete: operations["eliminarWebhook"];
        options?: never;
        head?: never;
        /**
         * Change the events of an endpoint, or disable and enable it
         * @description Send `events` (the full new list), `active`, or both; the answer is the endpoint as changed. A disabled endpoint keeps its deliveries and receives no new ones until enabled again.
         */
        patch: operations["actualizarWebhook"];
        trace?: never;
    };
    "/switch/v1/webhooks/{id}/rotar-secreto": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description A new secret, shown once in this answer. The previous one keeps signing beside it until `rotacion_hasta`: `x-service-signature` carries the new signature only, `webhook-signature` carries both (space-separated).
         */
        post: operations["rotarSecretoWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/webhooks/{id}/entregas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deliveries of an endpoint
         * @description Newest first (at most 100), each with every attempt: time, HTTP status, latency, error; and the next attempt while pending.
         */
        get: operations["listarEntregasWebhook"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/transacciones/{id}/entregas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Webhook deliveries of a transaction
         * @description Every delivery of the transaction, to each endpoint (deleted ones included), each with every attempt. A transaction of another merchant or mode: 404.
         */
        get: operations["listarEntregasTransaccion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/switch/v1/entregas/{id}/reenviar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeliver a webhook delivery
         * @description Attempts it again now with the same body and signature; its earlier attempts are kept.
         */
        post: operations["reenviarEntrega"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "transaccion.aprobada": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A transaction entered ACEPTADA
         * @description Sent to each endpoint subscribed to `transaccion.aprobada` when one of your transactions, in the endpoint's mode, enters ACEPTADA. Token operations send it too (`data.operacion` names the operation kind).
         *
         *     Each delivery is signed twice with the endpoint secret given at registration (`whsec_` followed by base64); verify either, over the RAW body bytes as received, comparing in constant time:
         *
         *     1. `x-service-signature: sha256=<hex>`: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret exactly as issued (SPEC 6).
         *
         *     2. Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature: v1,<base64>` is the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the secret as that specification defines it; reject a `webhook-timestamp` outside your tolerance (e.g. 5 minutes) to refuse replays. Its libraries verify these headers.
         *
         *     Answer 2xx quickly. Any other answer, or none within the timeout, is retried: immediately, then after 30 s, 2 min, 5 min, 15 min and 1 h (6 attempts), with the same body bytes and `webhook-id`. The same state change may arrive more than once: deduplicate by `data.id` + `type` (or by `webhook-id`).
         */
        post: operations["eventoTransaccionAprobada"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "transaccion.liquidada": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A transaction entered LIQUIDADA
         * @description Sent to each endpoint subscribed to `transaccion.liquidada` when one of your transactions, in the endpoint's mode, enters LIQUIDADA. Token operations send it too (`data.operacion` names the operation kind).
         *
         *     Each delivery is signed twice with the endpoint secret given at registration (`whsec_` followed by base64); verify either, over the RAW body bytes as received, comparing in constant time:
         *
         *     1. `x-service-signature: sha256=<hex>`: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret exactly as issued (SPEC 6).
         *
         *     2. Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature: v1,<base64>` is the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the secret as that specification defines it; reject a `webhook-timestamp` outside your tolerance (e.g. 5 minutes) to refuse replays. Its libraries verify these headers.
         *
         *     Answer 2xx quickly. Any other answer, or none within the timeout, is retried: immediately, then after 30 s, 2 min, 5 min, 15 min and 1 h (6 attempts), with the same body bytes and `webhook-id`. The same state change may arrive more than once: deduplicate by `data.id` + `type` (or by `webhook-id`).
         */
        post: operations["eventoTransaccionLiquidada"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "transaccion.rechazada": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A transaction entered RECHAZADA
         * @description Sent to each endpoint subscribed to `transaccion.rechazada` when one of your transactions, in the endpoint's mode, enters RECHAZADA. Token operations send it too (`data.operacion` names the operation kind).
         *
         *     Each delivery is signed twice with the endpoint secret given at registration (`whsec_` followed by base64); verify either, over the RAW body bytes as received, comparing in constant time:
         *
         *     1. `x-service-signature: sha256=<hex>`: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret exactly as issued (SPEC 6).
         *
         *     2. Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature: v1,<base64>` is the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the secret as that specification defines it; reject a `webhook-timestamp` outside your tolerance (e.g. 5 minutes) to refuse replays. Its libraries verify these headers.
         *
         *     Answer 2xx quickly. Any other answer, or none within the timeout, is retried: immediately, then after 30 s, 2 min, 5 min, 15 min and 1 h (6 attempts), with the same body bytes and `webhook-id`. The same state change may arrive more than once: deduplicate by `data.id` + `type` (or by `webhook-id`).
         */
        post: operations["eventoTransaccionRechazada"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "cobro_esperado.recibido": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An expected payment was paid in full
         * @description Sent to each active endpoint of your mode when one of your expected payments (POST /cobros/esperados) enters RECIBIDO; every endpoint gets these, whatever transaction events it subscribed to.
         *
         *     Each delivery is signed twice with the endpoint secret given at registration (`whsec_` followed by base64); verify either, over the RAW body bytes as received, comparing in constant time:
         *
         *     1. `x-service-signature: sha256=<hex>`: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret exactly as issued (SPEC 6).
         *
         *     2. Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature: v1,<base64>` is the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the secret as that specification defines it; reject a `webhook-timestamp` outside your tolerance (e.g. 5 minutes) to refuse replays. Its libraries verify these headers.
         *
         *     Answer 2xx quickly. Any other answer, or none within the timeout, is retried: immediately, then after 30 s, 2 min, 5 min, 15 min and 1 h (6 attempts), with the same body bytes and `webhook-id`. The same state change may arrive more than once: deduplicate by `data.id` + `type` (or by `webhook-id`).
         */
        post: operations["eventoCobroEsperadoRecibido"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "cobro_esperado.pago_parcial": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Part of an expected payment arrived (sent again on each further part)
         * @description Sent to each active endpoint of your mode when one of your expected payments (POST /cobros/esperados) enters PAGO_PARCIAL; every endpoint gets these, whatever transaction events it subscribed to.
         *
         *     Each delivery is signed twice with the endpoint secret given at registration (`whsec_` followed by base64); verify either, over the RAW body bytes as received, comparing in constant time:
         *
         *     1. `x-service-signature: sha256=<hex>`: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret exactly as issued (SPEC 6).
         *
         *     2. Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature: v1,<base64>` is the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the secret as that specification defines it; reject a `webhook-timestamp` outside your tolerance (e.g. 5 minutes) to refuse replays. Its libraries verify these headers.
         *
         *     Answer 2xx quickly. Any other answer, or none within the timeout, is retried: immediately, then after 30 s, 2 min, 5 min, 15 min and 1 h (6 attempts), with the same body bytes and `webhook-id`. The same state change may arrive more than once: deduplicate by `data.id` + `type` (or by `webhook-id`).
         */
        post: operations["eventoCobroEsperadoPagoParcial"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "cobro_esperado.sobrepago": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * More than an expected payment arrived
         * @description Sent to each active endpoint of your mode when one of your expected payments (POST /cobros/esperados) enters SOBREPAGO; every endpoint gets these, whatever transaction events it subscribed to.
         *
         *     Each delivery is signed twice with the endpoint secret given at registration (`whsec_` followed by base64); verify either, over the RAW body bytes as received, comparing in constant time:
         *
         *     1. `x-service-signature: sha256=<hex>`: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret exactly as issued (SPEC 6).
         *
         *     2. Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature: v1,<base64>` is the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the secret as that specification defines it; reject a `webhook-timestamp` outside your tolerance (e.g. 5 minutes) to refuse replays. Its libraries verify these headers.
         *
         *     Answer 2xx quickly. Any other answer, or none within the timeout, is retried: immediately, then after 30 s, 2 min, 5 min, 15 min and 1 h (6 attempts), with the same body bytes and `webhook-id`. The same state change may arrive more than once: deduplicate by `data.id` + `type` (or by `webhook-id`).
         */
        post: operations["eventoCobroEsperadoSobrepago"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "cobro_esperado.vencido": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An expected payment expired with nothing received
         * @description Sent to each active endpoint of your mode when one of your expected payments (POST /cobros/esperados) enters VENCIDO; every endpoint gets these, whatever transaction events it subscribed to.
         *
         *     Each delivery is signed twice with the endpoint secret given at registration (`whsec_` followed by base64); verify either, over the RAW body bytes as received, comparing in constant time:
         *
         *     1. `x-service-signature: sha256=<hex>`: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret exactly as issued (SPEC 6).
         *
         *     2. Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature: v1,<base64>` is the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the secret as that specification defines it; reject a `webhook-timestamp` outside your tolerance (e.g. 5 minutes) to refuse replays. Its libraries verify these headers.
         *
         *     Answer 2xx quickly. Any other answer, or none within the timeout, is retried: immediately, then after 30 s, 2 min, 5 min, 15 min and 1 h (6 attempts), with the same body bytes and `webhook-id`. The same state change may arrive more than once: deduplicate by `data.id` + `type` (or by `webhook-id`).
         */
        post: operations["eventoCobroEsperadoVencido"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        Instrumento: {
            tipo: "cuenta" | "telefono";
            /** @description 20-digit account when tipo=cuenta; 11-digit phone with leading 0 when tipo=telefono */
            valor: string;
            /** @description 4-digit central bank code */
            banco: string;
            /**
             * @description Person-type prefix V, E, J, G or P (upper case) followed by 1 to 9 digits
             * @example V12345678
             */
            identificacion: string;
            /** @description 1 to 40 characters, not all blank: letters of any script (accents, ñ, ü), digits, spaces, punctuation and symbols of the Basic Multilingual Plane; no control characters nor invisible ones (C0, DEL, C1, U+2028/2029, bidi marks and overrides, zero-width characters, U+FEFF, soft hyphen, private use, noncharacters), nor characters beyond U+FFFF (emoji, tags) */
            nombre: string;
        } & (unknown & unknown);
        Monto: {
            /** @description Positive amount with at most 2 decimals. Test mode with `banco_preferido` naming an emulated bank: the cents pick the outcome, e.g. .51 → RECHAZADA SALDO_INSUFICIENTE, .81 → DESCONOCIDA then LIQUIDADA, .82 → DESCONOCIDA then RECHAZADA, .83 → slow settlement (each bank's table: its `sandbox` in GET /bancos, docs/sandbox.md) */
            valor: number;
            /**
             * @description ISO-4217; only VES is accepted
             * @default VES
             * @enum {string}
             */
            moneda?: "VES";
        };
        /** @description ACEPTADA (approved, settling), PENDIENTE (in interbank settlement), LIQUIDADA (settled, final), RECHAZADA (final, reason in motivo_rechazo), DESCONOCIDA (the bank may have moved the money: query /switch/v1/consultar, never resend with a new key). ERROR is listed by the contract but never produced by this switch: its own failures are retried until they pass. */
        Estado: "ACEPTADA" | "PENDIENTE" | "LIQUIDADA" | "RECHAZADA" | "ERROR" | "DESCONOCIDA";
        MotivoRechazo: "SALDO_INSUFICIENTE" | "OTP_INVALIDO" | "CUENTA_NO_EXISTE" | "CUENTA_BLOQUEADA" | "CUENTA_NO_DEBITO" | "CUENTA_NO_CREDITO" | "MONTO_INVALIDO" | "EXCEDE_LIMITE" | "BENEFICIARIO_NO_COINCIDE" | "NO_AFILIADO_SERVICIO" | "BANCO_NO_DISPONIBLE" | "DUPLICADA" | "FUERA_DE_HORARIO" | "CANCELADA_POR_PAGADOR" | "PENDIENTE_BCV" | "RECHAZO_TECNICO" | "FIRMA_AUTH" | "NO_SOPORTADO" | "BLOQUEO_RIESGO" | "DESCONOCIDO";
        TokenRequest: {
            /**
             * Format: uuid
             * @description UUID (v4 recommended), unique per operation; reuse it to retry safely (SPEC 4.9, 7.4)
             */
            idempotency_key: string;
            monto: components["schemas"]["Monto"];
            /** @description 1 to 35 characters: letters of any script (accents, ñ, ü), digits, spaces, punctuation and symbols of the Basic Multilingual Plane; no control characters nor invisible ones (C0, DEL, C1, U+2028/2029, bidi marks and overrides, zero-width characters, U+FEFF, soft hyphen, private use, noncharacters), nor characters beyond U+FFFF (emoji, tags) */
            concepto: string;
            /** @description Channel the merchant collected the order through */
            canal?: "web" | "app" | "pos" | "api";
            /** @description Hint for the rail; honoured when that bank is enabled and able. Without it, test mode routes to `bnc`, the simulated bank, whose outcome no amount changes. Test mode, where a bank answers through its emulator (`npm start`, the test deployment): naming it here makes the cents of `monto.valor` pick the outcome, end to end; that bank's table is its `sandbox` in GET /bancos (docs/sandbox.md). */
            banco_preferido?: "banco_plaza" | "bnc" | "bancaribe" | "banco_activo";
            cobrador: components["schemas"]["Instrumento"];
            pagador: components["schemas"]["Instrumento"];
        };
        CobrarRequest: {
            /**
             * Format: uuid
             * @description UUID (v4 recommended), unique per operation; reuse it to retry safely (SPEC 4.9, 7.4)
             */
            idempotency_key: string;
            monto: components["schemas"]["Monto"];
            /** @description 1 to 35 characters: letters of any script (accents, ñ, ü), digits, spaces, punctuation and symbols of the Basic Multilingual Plane; no control characters nor invisible ones (C0, DEL, C1, U+2028/2029, bidi marks and overrides, zero-width characters, U+FEFF, soft hyphen, private use, noncharacters), nor characters beyond U+FFFF (emoji, tags) */
            concepto: string;
            /** @description Channel the merchant collected the order through */
            canal?: "web" | "app" | "pos" | "api";
            /** @description Hint for the rail; honoured when that bank is enabled and able. Without it, test mode routes to `bnc`, the simulated bank, whose outcome no amount changes. Test mode, where a bank answers through its emulator (`npm start`, the test deployment): naming it here makes the cents of `monto.valor` pick the outcome, end to end; that bank's table is its `sandbox` in GET /bancos (docs/sandbox.md). */
            banco_preferido?: "banco_plaza" | "bnc" | "bancaribe" | "banco_activo";
            cobrador: components["schemas"]["Instrumento"];
            pagador: components["schemas"]["Instrumento"];
            /** @description OTP from the payer bank, 6 to 8 digits. Sent to the bank only: never kept in clear nor shown back (the transaction detail leaves it out) */
            otp: string;
        };
        PagarRequest: {
            /**
             * Format: uuid
             * @description UUID (v4 recommended), unique per operation; reuse it to retry safely (SPEC 4.9, 7.4)
             */
            idempotency_key: string;
            monto: components["schemas"]["Monto"];
            /** @description 1 to 35 characters: letters of any script (accents, ñ, ü), digits, spaces, punctuation and symbols of the Basic Multilingual Plane; no control characters nor invisible ones (C0, DEL, C1, U+2028/2029, bidi marks and overrides, zero-width characters, U+FEFF, soft hyphen, private use, noncharacters), nor characters beyond U+FFFF (emoji, tags) */
            concepto: string;
            /** @description Channel the merchant collected the order through */
            canal?: "web" | "app" | "pos" | "api";
            /** @description Hint for the rail; honoured when that bank is enabled and able. Without it, test mode routes to `bnc`, the simulated bank, whose outcome no amount changes. Test mode, where a bank answers through its emulator (`npm start`, the test deployment): naming it here makes the cents of `monto.valor` pick the outcome, end to end; that bank's table is its `sandbox` in GET /bancos (docs/sandbox.md). */
            banco_preferido?: "banco_plaza" | "bnc" | "bancaribe" | "banco_activo";
            ordenante: components["schemas"]["Instrumento"];
            beneficiario: components["schemas"]["Instrumento"];
            proposito?: "transferencia" | "nomina" | "proveedor";
            /** @description Rail; a destination of type cuenta always goes by credito_inmediato */
            via?: "credito_inmediato" | "pago_movil";
        };
        ConsultarRequest: {
            id: string;
        };
        ReversoRequest: {
            /**
             * Format: uuid
             * @description UUID (v4 recommended), unique per operation; reuse it to retry safely (SPEC 4.9, 7.4)
             */
            idempotency_key: string;
            id: string;
            /** @description 1 to 35 characters: letters of any script (accents, ñ, ü), digits, spaces, punctuation and symbols of the Basic Multilingual Plane; no control characters nor invisible ones (C0, DEL, C1, U+2028/2029, bidi marks and overrides, zero-width characters, U+FEFF, soft hyphen, private use, noncharacters), nor characters beyond U+FFFF (emoji, tags) */
            concepto?: string;
        };
        Resultado: {
            /** @description Transaction id, used by /consultar */
            id: string;
            estado: components["schemas"]["Estado"];
            /** @description Bank that processed the operation; null only when no bank was able to (BANCO_NO_DISPONIBLE by routing) */
            banco_usado: ("banco_plaza" | "bnc" | "bancaribe" | "banco_activo") | null;
            referencia_banco: string | null;
            endtoend: string | null;
            motivo_rechazo: components["schemas"]["MotivoRechazo"] | null;
            intentos: number;
            /** @description Untouched bank data */
            raw?: {
                [key: string]: unknown;
            };
        };
        BancoCatalogo: {
            banco: "banco_plaza" | "bnc" | "bancaribe" | "banco_activo";
            capabilities: ("cobrar" | "pagar" | "token" | "consultar" | "saldo" | "movimientos")[];
            /** @description Test mode only, for a bank whose test route answers through its emulator: the magic amounts that provoke each outcome when `banco_preferido` names this bank */
            sandbox?: {
                /** @description The last two digits of `monto.valor` (`51`: 10.51, 1250.51 …) */
                centavos: string;
                /** @description The request that shows it (`pagar`: a crédito inmediato to an account) */
                operacion: "pagar" | "cobrar" | "cobrar/token";
                estado: components["schemas"]["Estado"];
                /** @description Where it ends through /consultar, when `estado` is not final */
                final: components["schemas"]["Estado"] | null;
                motivo_rechazo: components["schemas"]["MotivoRechazo"] | null;
                descripcion: string;
            }[];
        };
        Saldo: {
            cuenta: string;
            banco: "banco_plaza" | "bnc" | "bancaribe" | "banco_activo";
            /** @enum {string} */
            moneda: "VES";
            /** @description Amount in the account currency, 2 decimals */
            disponible: number;
            /** @description Amount in the account currency, 2 decimals */
            contable: number;
            /** @description Amount in the account currency, 2 decimals */
            bloqueado: number;
            /**
             * Format: date-time
             * @description When the bank gave the figures (UTC)
             */
            consultado_en: string;
            raw?: {
                [key: string]: unknown;
            };
        };
        Movimiento: {
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            fecha: string;
            hora: string | null;
            referencia: string;
            concepto: string;
            tipo: "credito" | "debito";
            /** @description Amount in the account currency, 2 decimals */
            monto: number;
            /** @description Balance after the movement, when the bank gives it */
            saldo: number | null;
        };
        Movimientos: {
            cuenta: string;
            banco: "banco_plaza" | "bnc" | "bancaribe" | "banco_activo";
            /** @enum {string} */
            moneda: "VES";
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            desde: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            hasta: string;
            movimientos: components["schemas"]["Movimiento"][];
            /** @description Cursor of the next page, null on the last */
            siguiente: string | null;
        };
        /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
        ValidationError: {
            /** @enum {string} */
            error: "VALIDATION";
            /** @description Each invalid field by its path, with the reason */
            detail: {
                [key: string]: string;
            };
        };
        /** @description `x-switch-key` missing, malformed, invalid or inactive */
        UnauthorizedError: {
            /** @enum {string} */
            error: "unauthorized";
        };
        /** @description No such operation, endpoint or delivery for this merchant and mode, or no such path */
        NotFoundError: {
            /** @enum {string} */
            error: "NOT_FOUND";
            message?: string;
        };
        /** @description IDEMPOTENCY_CONFLICT: The idempotency_key was used with a different body (or, for a cobrar/token, by the other step first: a cobrar without token takes the key); nothing is stored or sent. Use a new key for a new operation; REVERSO_EXISTENTE: The operation already has its one reverso, named in `reverso` (query it with /consultar); nothing is stored or sent; TOKEN_EN_CURSO: The token of this idempotency_key is not recorded yet; retry the cobrar with the same key */
        IdempotencyConflictError: {
            /** @enum {string} */
            error: "IDEMPOTENCY_CONFLICT" | "REVERSO_EXISTENTE" | "TOKEN_EN_CURSO";
            message?: string;
            /** @description REVERSO_EXISTENTE: the id of the reverso the original already has */
            reverso?: string;
        };
        /** @description The body is larger than the limit */
        PayloadTooLargeError: {
            /** @enum {string} */
            error: "PAYLOAD_TOO_LARGE";
            message?: string;
        };
        /** @description Not `application/json`, or a charset other than UTF-8 */
        UnsupportedMediaTypeError: {
            /** @enum {string} */
            error: "UNSUPPORTED_MEDIA_TYPE";
            message?: string;
        };
        /** @description TOKEN_MISMATCH: A cobrar whose monto, cobrador or pagador differs from its token (same idempotency_key); ACCOUNT_NOT_REGISTERED: Live: ordenante, cobrador or cuenta is not one of your registered accounts; nothing is stored or sent. Register it with the operator; BANCO_NO_DISPONIBLE: No enabled bank serves the account; as the code of a balance or statement read, the bank refused the query (a `motivo_rechazo`, like the other such codes below); DESTINATION_REFUSED: A webhook URL to an address webhooks may not reach; ENDPOINT_LIMIT: The mode has its 10 webhook endpoints already: delete one first; any other `motivo_rechazo`: A balance or statement read the bank refused, named by its `motivo_rechazo` (API contract 7.2) */
        RefusedRequestError: {
            /** @enum {string} */
            error: "TOKEN_MISMATCH" | "ACCOUNT_NOT_REGISTERED" | "BANCO_NO_DISPONIBLE" | "DESTINATION_REFUSED" | "ENDPOINT_LIMIT" | "SALDO_INSUFICIENTE" | "OTP_INVALIDO" | "CUENTA_NO_EXISTE" | "CUENTA_BLOQUEADA" | "CUENTA_NO_DEBITO" | "CUENTA_NO_CREDITO" | "MONTO_INVALIDO" | "EXCEDE_LIMITE" | "BENEFICIARIO_NO_COINCIDE" | "NO_AFILIADO_SERVICIO" | "DUPLICADA" | "FUERA_DE_HORARIO" | "CANCELADA_POR_PAGADOR" | "PENDIENTE_BCV" | "RECHAZO_TECNICO" | "FIRMA_AUTH" | "NO_SOPORTADO" | "BLOQUEO_RIESGO" | "DESCONOCIDO";
            message?: string;
            detail?: {
                [key: string]: string;
            };
        };
        /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
        RateLimitedError: {
            /** @enum {string} */
            error: "RATE_LIMITED";
            message?: string;
        };
        /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
        ServiceUnavailableError: {
            /** @enum {string} */
            error: "SERVICE_UNAVAILABLE";
            message?: string;
        };
        WebhookEvento: {
            type: "transaccion.aprobada" | "transaccion.liquidada" | "transaccion.rechazada";
            /** @description ISO 8601 UTC with milliseconds */
            sentAt: string;
            data: {
                id: string;
                estado: components["schemas"]["Estado"];
                monto: number;
                moneda: string;
                concepto: string;
                banco: string | null;
                referencia: string | null;
                operacion: "token" | "cobrar" | "pagar" | "reverso";
                /** @description Only when `operacion` is `reverso`: the id of the operation reversed; `monto` is the amount moved back and `referencia` the reverso's own bank reference */
                reverso_de?: string;
            };
        };
        TransaccionResumen: {
            id: string;
            operacion: "token" | "cobrar" | "pagar" | "reverso";
            estado: components["schemas"]["Estado"];
            banco_usado: ("banco_plaza" | "bnc" | "bancaribe" | "banco_activo") | null;
            monto: number;
            moneda: string;
            concepto: string | null;
            /** @description Who paid (cobrar, token: the pagador) or was paid (pagar: the beneficiario): their nombre, else their account or phone; null for a reverso */
            contraparte: string | null;
            idempotency_key: string;
            referencia_banco: string | null;
            motivo_rechazo: string | null;
            /** @description ISO 8601 UTC */
            creada: string;
            /** @description ISO 8601 UTC */
            actualizada: string;
        };
        Transacciones: {
            transacciones: components["schemas"]["TransaccionResumen"][];
            /** @description Pass as `cursor` for the next page; null on the last page */
            siguiente: string | null;
        };
        TransaccionDetalle: {
            resultado: components["schemas"]["Resultado"];
            operacion: "token" | "cobrar" | "pagar" | "reverso";
            idempotency_key: string;
            /** @description The request body as accepted, without a cobrar's `otp` (never shown nor kept in clear) */
            solicitud: {
                [key: string]: unknown;
            };
            historial: {
                desde: components["schemas"]["Estado"] | null;
                hacia: components["schemas"]["Estado"];
                en: string;
                causa: string;
                motivo: string | null;
                raw: {
                    [key: string]: unknown;
                } | null;
            }[];
            intentos: {
                n: number;
                banco: string;
                via: string;
                enviado: string;
                resultado: string | null;
            }[];
            evidencia: {
                en: string;
                resultado: string;
                raw: {
                    [key: string]: unknown;
                };
            }[];
            creada: string;
            actualizada: string;
            /** @description The id of this operation's reverso, when it has one (an operation has at most one) */
            reverso?: string;
            /** @description A reverso: the id of the operation it reverses */
            reverso_de?: string;
        };
        CobroEsperadoRequest: {
            /**
             * Format: uuid
             * @description UUID (v4 recommended), unique per operation; reuse it to retry safely (SPEC 4.9, 7.4)
             */
            idempotency_key: string;
            monto: components["schemas"]["Monto"];
            /** @description 1 to 35 characters: letters of any script (accents, ñ, ü), digits, spaces, punctuation and symbols of the Basic Multilingual Plane; no control characters nor invisible ones (C0, DEL, C1, U+2028/2029, bidi marks and overrides, zero-width characters, U+FEFF, soft hyphen, private use, noncharacters), nor characters beyond U+FFFF (emoji, tags) */
            concepto: string;
            /** @description The merchant's own order id */
            orden_id: string;
            cobrador: components["schemas"]["Instrumento"];
            /**
             * Format: date-time
             * @description ISO 8601 instant after which nothing is awaited; in the future, at most 30 days ahead (default: 24 hours after creation)
             */
            vence_en?: string;
        };
        CobroEsperado: {
            id: string;
            /** @description ESPERADO (waiting), RECIBIDO (paid in full), PAGO_PARCIAL (less received: still open for the rest), SOBREPAGO (more received), VENCIDO (expired with nothing received) */
            estado: "ESPERADO" | "RECIBIDO" | "PAGO_PARCIAL" | "SOBREPAGO" | "VENCIDO";
            /** @description Amount awaited, VES */
            monto: number;
            /** @enum {string} */
            moneda: "VES";
            /** @description Sum of the credits matched so far, VES */
            recibido: number;
            concepto: string;
            /** @description The merchant's own order id */
            orden_id: string;
            instrucciones: {
                /** @description The merchant's pago móvil phone (null when the account has none: pay by transfer) */
                telefono: string | null;
                /** @description 4-digit central bank code */
                banco: string;
                /** @description 20-digit account number */
                cuenta: string;
                rif: string | null;
                /** @description The exact amount to send, VES */
                monto: number;
                /** @description The concept to write, code first: it names this order among payments of the same amount */
                concepto: string;
            };
            vence_en: string;
            creado_en: string;
            actualizado_en: string;
            /** @description The credits that paid it, each claimed for this payment only */
            movimientos: {
                banco: "banco_plaza" | "bnc" | "bancaribe" | "banco_activo";
                /** @description As the receiving bank booked it */
                referencia: string;
                /** Format: date */
                fecha: string;
                monto: number;
            }[];
            historial: {
                /** @description ESPERADO (waiting), RECIBIDO (paid in full), PAGO_PARCIAL (less received: still open for the rest), SOBREPAGO (more received), VENCIDO (expired with nothing received) */
                de: "ESPERADO" | "RECIBIDO" | "PAGO_PARCIAL" | "SOBREPAGO" | "VENCIDO";
                /** @description ESPERADO (waiting), RECIBIDO (paid in full), PAGO_PARCIAL (less received: still open for the rest), SOBREPAGO (more received), VENCIDO (expired with nothing received) */
                a: "ESPERADO" | "RECIBIDO" | "PAGO_PARCIAL" | "SOBREPAGO" | "VENCIDO";
                motivo: "pago_exacto" | "pago_menor" | "pago_mayor" | "vencimiento";
                /** @description ISO 8601 UTC */
                en: string;
            }[];
        };
        CobrosEsperados: {
            cobros: components["schemas"]["CobroEsperado"][];
            /** @description Pass as `cursor` for the next page; null on the last page */
            siguiente: string | null;
        };
        WebhookCobroEsperado: {
            type: "cobro_esperado.recibido" | "cobro_esperado.pago_parcial" | "cobro_esperado.sobrepago" | "cobro_esperado.vencido";
            /** @description ISO 8601 UTC with milliseconds */
            sentAt: string;
            data: components["schemas"]["CobroEsperado"];
        };
        WebhookEndpointCreateRequest: {
            /** @description http(s) URL; https in live mode */
            url: string;
            /** @description Default: every event */
            events?: ("transaccion.aprobada" | "transaccion.liquidada" | "transaccion.rechazada")[];
        };
        WebhookEndpointUpdateRequest: {
            events?: ("transaccion.aprobada" | "transaccion.liquidada" | "transaccion.rechazada")[];
            /** @description false disables the endpoint */
            active?: boolean;
        };
        WebhookEndpoint: {
            id: string;
            url: string;
            events: ("transaccion.aprobada" | "transaccion.liquidada" | "transaccion.rechazada")[];
            active: boolean;
            /** @description Until when the previous secret still signs, after a rotation */
            rotacion_hasta: string | null;
            creado: string;
        };
        WebhookEndpointWithSecret: {
            id: string;
            url: string;
            events: ("transaccion.aprobada" | "transaccion.liquidada" | "transaccion.rechazada")[];
            active: boolean;
            /** @description Until when the previous secret still signs, after a rotation */
            rotacion_hasta: string | null;
            creado: string;
            /** @description whsec_…: shown only in this answer; verify x-service-signature with it */
            secret: string;
        };
        WebhookEndpointEliminado: {
            id: string;
            /** @enum {boolean} */
            eliminado: true;
        };
        WebhookEntrega: {
            id: string;
            endpoint_id: string;
            transaccion_id: string;
            evento: "transaccion.aprobada" | "transaccion.liquidada" | "transaccion.rechazada" | "cobro_esperado.recibido" | "cobro_esperado.pago_parcial" | "cobro_esperado.sobrepago" | "cobro_esperado.vencido";
            url: string;
            estado: "pending" | "delivered" | "exhausted";
            proximo_intento: string | null;
            intentos: {
                n: number;
                en: string;
                codigo_http: number | null;
                latencia_ms: number;
                /** @description Why the attempt failed, as a category: `HTTP <status>` (your receiver answered), `destination refused`, `timeout`, `connection refused`, `connection closed`, `name not resolved`, `TLS error`, `connection failed`, `endpoint removed or inactive` */
                error: string | null;
            }[];
            creada: string;
        };
        VerificarRequest: {
            /**
             * Format: uuid
             * @description UUID (v4 recommended), unique per operation; reuse it to retry safely (SPEC 4.9, 7.4)
             */
            idempotency_key: string;
            monto: components["schemas"]["Monto"];
            /** @description The payer's bank, 4-digit central bank code */
            banco_pagador: string;
            /** @description The payer's phone (11 digits, leading 0); this or identificacion_pagador */
            telefono_pagador?: string;
            /**
             * @description The payer's id (V12345678); this or telefono_pagador
             * @example V12345678
             */
            identificacion_pagador?: string;
            /** @description The reference as the payer's receipt shows it, 4 to 20 digits (the last digits are enough: each bank's minimum in docs/pago-movil.md) */
            referencia: string;
            /**
             * Format: date
             * @description YYYY-MM-DD, the day the payer sees on the receipt (Caracas time)
             */
            fecha: string;
            cobrador: components["schemas"]["Instrumento"];
        };
        Verificacion: {
            /** @description The verification, `ver_…`: the same for every repeat of the request under its idempotency_key */
            id: string;
            /** @description VERIFICADO: found, amount and payer match, and the movement is now claimed by this verification. MONTO_DISTINTO: found with another amount (`monto_recibido`). NO_ENCONTRADO: not in the statement (yet): ask again after `reintentar_despues` (null: it will not appear). YA_RECLAMADO: another verification or expected payment holds that movement (`reclamado_por`). RECHAZADA: the bank could not be asked (`motivo_rechazo`) */
            estado: "VERIFICADO" | "MONTO_DISTINTO" | "NO_ENCONTRADO" | "YA_RECLAMADO" | "RECHAZADA";
            /** @description The receiving bank that was asked */
            banco: ("banco_plaza" | "bnc" | "bancaribe" | "banco_activo") | null;
            /** @description The amount of the request */
            monto_declarado: number;
            /** @description The amount the bank booked (VERIFICADO, MONTO_DISTINTO, YA_RECLAMADO) */
            monto_recibido: number | null;
            movimiento: {
                /** @description As the receiving bank books it (some keep only the last digits) */
                referencia: string;
                /**
                 * Format: date
                 * @description The bank booking day (Caracas); the next day for a late-night payment
                 */
                fecha: string;
                hora: string | null;
                monto: number;
            } | null;
            /** @description NO_ENCONTRADO: when to ask again */
            reintentar_despues: string | null;
            /** @description YA_RECLAMADO: the verification or expected payment that holds the movement */
            reclamado_por: {
                tipo: "verificacion" | "esperado";
                id: string;
            } | null;
            /** @description RECHAZADA: why the bank could not be asked */
            motivo_rechazo: components["schemas"]["MotivoRechazo"] | null;
            /** Format: date-time */
            verificado_en: string;
        };
        PagoMovilEntranteRequest: {
            monto: components["schemas"]["Monto"];
            /** @description The payer's bank, 4-digit central bank code */
            banco_pagador: string;
            /** @description The payer's phone (11 digits, leading 0) */
            telefono_pagador: string;
            /**
             * @description The payer's id (V12345678)
             * @example V12345678
             */
            identificacion_pagador?: string;
            cobrador: components["schemas"]["Instrumento"];
            /**
             * Format: date
             * @description The day the payer sends it (Caracas), default today; not in the future
             */
            fecha?: string;
            /** @description HH:MM the payer sends it (Caracas), default now; from 23:30 on, the bank books it the next day */
            hora?: string;
        };
        PagoMovilEntrante: {
            /** @description The reference on the payer's receipt (12 digits) */
            referencia: string;
            /**
             * Format: date
             * @description The day on the payer's receipt
             */
            fecha: string;
            /** @description HH:MM on the payer's receipt */
            hora: string;
            monto: number;
            /** @description The receiving bank that booked it (its routing id) */
            banco: string;
            /** @description The receiving account it was booked on */
            cuenta: string;
            /**
             * Format: date
             * @description The day the receiving bank booked it
             */
            fecha_banco: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    cobrarToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenRequest"];
            };
        };
        responses: {
            /** @description Read `estado` for the money outcome; HTTP 200 only says the switch answered */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    /** @description Present (`true`) when this answer is a replay: the idempotency_key was already used by an earlier request with the same body, and this is that operation (no new one was created). Absent on the first answer. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Resultado"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The idempotency_key was used with a different body (or, for a cobrar/token, by the other step first: a cobrar without token takes the key); nothing is stored or sent. Use a new key for a new operation; REVERSO_EXISTENTE: The operation already has its one reverso, named in `reverso` (query it with /consultar); nothing is stored or sent; TOKEN_EN_CURSO: The token of this idempotency_key is not recorded yet; retry the cobrar with the same key */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description Not `application/json`, or a charset other than UTF-8 */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /** @description TOKEN_MISMATCH: A cobrar whose monto, cobrador or pagador differs from its token (same idempotency_key); ACCOUNT_NOT_REGISTERED: Live: ordenante, cobrador or cuenta is not one of your registered accounts; nothing is stored or sent. Register it with the operator; BANCO_NO_DISPONIBLE: No enabled bank serves the account; as the code of a balance or statement read, the bank refused the query (a `motivo_rechazo`, like the other such codes below); DESTINATION_REFUSED: A webhook URL to an address webhooks may not reach; ENDPOINT_LIMIT: The mode has its 10 webhook endpoints already: delete one first; any other `motivo_rechazo`: A balance or statement read the bank refused, named by its `motivo_rechazo` (API contract 7.2) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefusedRequestError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    cobrar: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CobrarRequest"];
            };
        };
        responses: {
            /** @description Read `estado` for the money outcome; HTTP 200 only says the switch answered */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    /** @description Present (`true`) when this answer is a replay: the idempotency_key was already used by an earlier request with the same body, and this is that operation (no new one was created). Absent on the first answer. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Resultado"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The idempotency_key was used with a different body (or, for a cobrar/token, by the other step first: a cobrar without token takes the key); nothing is stored or sent. Use a new key for a new operation; REVERSO_EXISTENTE: The operation already has its one reverso, named in `reverso` (query it with /consultar); nothing is stored or sent; TOKEN_EN_CURSO: The token of this idempotency_key is not recorded yet; retry the cobrar with the same key */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description Not `application/json`, or a charset other than UTF-8 */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /** @description TOKEN_MISMATCH: A cobrar whose monto, cobrador or pagador differs from its token (same idempotency_key); ACCOUNT_NOT_REGISTERED: Live: ordenante, cobrador or cuenta is not one of your registered accounts; nothing is stored or sent. Register it with the operator; BANCO_NO_DISPONIBLE: No enabled bank serves the account; as the code of a balance or statement read, the bank refused the query (a `motivo_rechazo`, like the other such codes below); DESTINATION_REFUSED: A webhook URL to an address webhooks may not reach; ENDPOINT_LIMIT: The mode has its 10 webhook endpoints already: delete one first; any other `motivo_rechazo`: A balance or statement read the bank refused, named by its `motivo_rechazo` (API contract 7.2) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefusedRequestError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    pagar: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PagarRequest"];
            };
        };
        responses: {
            /** @description Read `estado` for the money outcome; HTTP 200 only says the switch answered */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    /** @description Present (`true`) when this answer is a replay: the idempotency_key was already used by an earlier request with the same body, and this is that operation (no new one was created). Absent on the first answer. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Resultado"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The idempotency_key was used with a different body (or, for a cobrar/token, by the other step first: a cobrar without token takes the key); nothing is stored or sent. Use a new key for a new operation; REVERSO_EXISTENTE: The operation already has its one reverso, named in `reverso` (query it with /consultar); nothing is stored or sent; TOKEN_EN_CURSO: The token of this idempotency_key is not recorded yet; retry the cobrar with the same key */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description Not `application/json`, or a charset other than UTF-8 */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /** @description TOKEN_MISMATCH: A cobrar whose monto, cobrador or pagador differs from its token (same idempotency_key); ACCOUNT_NOT_REGISTERED: Live: ordenante, cobrador or cuenta is not one of your registered accounts; nothing is stored or sent. Register it with the operator; BANCO_NO_DISPONIBLE: No enabled bank serves the account; as the code of a balance or statement read, the bank refused the query (a `motivo_rechazo`, like the other such codes below); DESTINATION_REFUSED: A webhook URL to an address webhooks may not reach; ENDPOINT_LIMIT: The mode has its 10 webhook endpoints already: delete one first; any other `motivo_rechazo`: A balance or statement read the bank refused, named by its `motivo_rechazo` (API contract 7.2) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefusedRequestError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    reverso: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReversoRequest"];
            };
        };
        responses: {
            /** @description Read `estado` for the money outcome; HTTP 200 only says the switch answered */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    /** @description Present (`true`) when this answer is a replay: the idempotency_key was already used by an earlier request with the same body, and this is that operation (no new one was created). Absent on the first answer. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Resultado"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description No such operation, endpoint or delivery for this merchant and mode, or no such path */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The idempotency_key was used with a different body (or, for a cobrar/token, by the other step first: a cobrar without token takes the key); nothing is stored or sent. Use a new key for a new operation; REVERSO_EXISTENTE: The operation already has its one reverso, named in `reverso` (query it with /consultar); nothing is stored or sent; TOKEN_EN_CURSO: The token of this idempotency_key is not recorded yet; retry the cobrar with the same key */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description Not `application/json`, or a charset other than UTF-8 */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    consultar: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConsultarRequest"];
            };
        };
        responses: {
            /** @description Read `estado` for the money outcome; HTTP 200 only says the switch answered */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Resultado"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description No such operation, endpoint or delivery for this merchant and mode, or no such path */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description Not `application/json`, or a charset other than UTF-8 */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    listarBancos: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BancoCatalogo"][];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    consultarSaldo: {
        parameters: {
            query: {
                /**
                 * @description 20-digit account number
                 * @example 01910000000000000001
                 */
                cuenta: string;
                /** @example VES */
                moneda?: "VES";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Saldo"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description No such operation, endpoint or delivery for this merchant and mode, or no such path */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description TOKEN_MISMATCH: A cobrar whose monto, cobrador or pagador differs from its token (same idempotency_key); ACCOUNT_NOT_REGISTERED: Live: ordenante, cobrador or cuenta is not one of your registered accounts; nothing is stored or sent. Register it with the operator; BANCO_NO_DISPONIBLE: No enabled bank serves the account; as the code of a balance or statement read, the bank refused the query (a `motivo_rechazo`, like the other such codes below); DESTINATION_REFUSED: A webhook URL to an address webhooks may not reach; ENDPOINT_LIMIT: The mode has its 10 webhook endpoints already: delete one first; any other `motivo_rechazo`: A balance or statement read the bank refused, named by its `motivo_rechazo` (API contract 7.2) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefusedRequestError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    listarMovimientos: {
        parameters: {
            query: {
                /**
                 * @description 20-digit account number
                 * @example 01910000000000000001
                 */
                cuenta: string;
                /**
                 * @description First day, YYYY-MM-DD (Venezuelan calendar day, UTC-4); not in the future. Otherwise 400 naming `desde`
                 * @example 2026-11-01
                 */
                desde: string;
                /**
                 * @description Last day, YYYY-MM-DD (default today); not before `desde`, and `hasta` − `desde` below 31 days (at most 31 calendar days). Otherwise 400 naming `hasta`
                 * @example 2026-11-30
                 */
                hasta?: string;
                /**
                 * @description Page size, 1 to 500 (default 100)
                 * @example 50
                 */
                limite?: string;
                /** @description Cursor of the next page from a previous answer */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Movimientos"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description No such operation, endpoint or delivery for this merchant and mode, or no such path */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description TOKEN_MISMATCH: A cobrar whose monto, cobrador or pagador differs from its token (same idempotency_key); ACCOUNT_NOT_REGISTERED: Live: ordenante, cobrador or cuenta is not one of your registered accounts; nothing is stored or sent. Register it with the operator; BANCO_NO_DISPONIBLE: No enabled bank serves the account; as the code of a balance or statement read, the bank refused the query (a `motivo_rechazo`, like the other such codes below); DESTINATION_REFUSED: A webhook URL to an address webhooks may not reach; ENDPOINT_LIMIT: The mode has its 10 webhook endpoints already: delete one first; any other `motivo_rechazo`: A balance or statement read the bank refused, named by its `motivo_rechazo` (API contract 7.2) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefusedRequestError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    verificarPago: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VerificarRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Verificacion"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The idempotency_key was used with a different body (or, for a cobrar/token, by the other step first: a cobrar without token takes the key); nothing is stored or sent. Use a new key for a new operation; REVERSO_EXISTENTE: The operation already has its one reverso, named in `reverso` (query it with /consultar); nothing is stored or sent; TOKEN_EN_CURSO: The token of this idempotency_key is not recorded yet; retry the cobrar with the same key */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /** @description TOKEN_MISMATCH: A cobrar whose monto, cobrador or pagador differs from its token (same idempotency_key); ACCOUNT_NOT_REGISTERED: Live: ordenante, cobrador or cuenta is not one of your registered accounts; nothing is stored or sent. Register it with the operator; BANCO_NO_DISPONIBLE: No enabled bank serves the account; as the code of a balance or statement read, the bank refused the query (a `motivo_rechazo`, like the other such codes below); DESTINATION_REFUSED: A webhook URL to an address webhooks may not reach; ENDPOINT_LIMIT: The mode has its 10 webhook endpoints already: delete one first; any other `motivo_rechazo`: A balance or statement read the bank refused, named by its `motivo_rechazo` (API contract 7.2) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefusedRequestError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    simularPagoMovilEntrante: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PagoMovilEntranteRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PagoMovilEntrante"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description No such operation, endpoint or delivery for this merchant and mode, or no such path */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    listarTransacciones: {
        parameters: {
            query?: {
                /**
                 * @description Operation kind
                 * @example pagar
                 */
                operacion?: "token" | "cobrar" | "pagar" | "reverso";
                /**
                 * @description ACEPTADA (approved, settling), PENDIENTE (in interbank settlement), LIQUIDADA (settled, final), RECHAZADA (final, reason in motivo_rechazo), DESCONOCIDA (the bank may have moved the money: query /switch/v1/consultar, never resend with a new key). ERROR is listed by the contract but never produced by this switch: its own failures are retried until they pass.
                 * @example LIQUIDADA
                 */
                estado?: components["schemas"]["Estado"];
                /**
                 * @description banco_usado (routing id)
                 * @example bnc
                 */
                banco?: "banco_plaza" | "bnc" | "bancaribe" | "banco_activo";
                /**
                 * @description First day, YYYY-MM-DD (Venezuelan calendar day, UTC-4), inclusive
                 * @example 2026-11-01
                 */
                desde?: string;
                /**
                 * @description Last day, YYYY-MM-DD (Venezuelan calendar day, UTC-4), inclusive; not before `desde`
                 * @example 2026-11-30
                 */
                hasta?: string;
                /**
                 * @description One transaction id
                 * @example txn_5d7f9b1d3f5a7c9e1b3d5f7a9c1e3b5d
                 */
                id?: string;
                /**
                 * @description The idempotency_key of the operation
                 * @example 6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60
                 */
                idempotency_key?: string;
                /**
                 * @description Page size, 1 to 100 (default 20)
                 * @example 20
                 */
                limite?: string;
                /** @description `siguiente` of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transacciones"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    exportarTransacciones: {
        parameters: {
            query?: {
                /**
                 * @description Operation kind
                 * @example pagar
                 */
                operacion?: "token" | "cobrar" | "pagar" | "reverso";
                /**
                 * @description ACEPTADA (approved, settling), PENDIENTE (in interbank settlement), LIQUIDADA (settled, final), RECHAZADA (final, reason in motivo_rechazo), DESCONOCIDA (the bank may have moved the money: query /switch/v1/consultar, never resend with a new key). ERROR is listed by the contract but never produced by this switch: its own failures are retried until they pass.
                 * @example LIQUIDADA
                 */
                estado?: components["schemas"]["Estado"];
                /**
                 * @description banco_usado (routing id)
                 * @example bnc
                 */
                banco?: "banco_plaza" | "bnc" | "bancaribe" | "banco_activo";
                /**
                 * @description First day, YYYY-MM-DD (Venezuelan calendar day, UTC-4), inclusive
                 * @example 2026-11-01
                 */
                desde?: string;
                /**
                 * @description Last day, YYYY-MM-DD (Venezuelan calendar day, UTC-4), inclusive; not before `desde`
                 * @example 2026-11-30
                 */
                hasta?: string;
                /**
                 * @description One transaction id
                 * @example txn_5d7f9b1d3f5a7c9e1b3d5f7a9c1e3b5d
                 */
                id?: string;
                /**
                 * @description The idempotency_key of the operation
                 * @example 6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60
                 */
                idempotency_key?: string;
                /**
                 * @description `es` (default): `;`, `1.719,83`, Caracas time; `numerico`: `,`, `1719.83`, ISO 8601 UTC
                 * @example numerico
                 */
                formato?: "es" | "numerico";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description CSV, one line per operation */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    detalleTransaccion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example txn_ejemplo */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransaccionDetalle"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description No such operation, endpoint or delivery for this merchant and mode, or no such path */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    listarCobrosEsperados: {
        parameters: {
            query?: {
                /**
                 * @description ESPERADO (waiting), RECIBIDO (paid in full), PAGO_PARCIAL (less received: still open for the rest), SOBREPAGO (more received), VENCIDO (expired with nothing received)
                 * @example RECIBIDO
                 */
                estado?: "ESPERADO" | "RECIBIDO" | "PAGO_PARCIAL" | "SOBREPAGO" | "VENCIDO";
                /**
                 * @description Page size, 1 to 100 (default 20)
                 * @example 20
                 */
                limite?: string;
                /** @description `siguiente` of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CobrosEsperados"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    crearCobroEsperado: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CobroEsperadoRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CobroEsperado"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The idempotency_key was used with a different body (or, for a cobrar/token, by the other step first: a cobrar without token takes the key); nothing is stored or sent. Use a new key for a new operation; REVERSO_EXISTENTE: The operation already has its one reverso, named in `reverso` (query it with /consultar); nothing is stored or sent; TOKEN_EN_CURSO: The token of this idempotency_key is not recorded yet; retry the cobrar with the same key */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description Not `application/json`, or a charset other than UTF-8 */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /** @description TOKEN_MISMATCH: A cobrar whose monto, cobrador or pagador differs from its token (same idempotency_key); ACCOUNT_NOT_REGISTERED: Live: ordenante, cobrador or cuenta is not one of your registered accounts; nothing is stored or sent. Register it with the operator; BANCO_NO_DISPONIBLE: No enabled bank serves the account; as the code of a balance or statement read, the bank refused the query (a `motivo_rechazo`, like the other such codes below); DESTINATION_REFUSED: A webhook URL to an address webhooks may not reach; ENDPOINT_LIMIT: The mode has its 10 webhook endpoints already: delete one first; any other `motivo_rechazo`: A balance or statement read the bank refused, named by its `motivo_rechazo` (API contract 7.2) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefusedRequestError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    detalleCobroEsperado: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example esp_ejemplo */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CobroEsperado"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description No such operation, endpoint or delivery for this merchant and mode, or no such path */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    listarWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"][];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    crearWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointCreateRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description Not `application/json`, or a charset other than UTF-8 */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /** @description TOKEN_MISMATCH: A cobrar whose monto, cobrador or pagador differs from its token (same idempotency_key); ACCOUNT_NOT_REGISTERED: Live: ordenante, cobrador or cuenta is not one of your registered accounts; nothing is stored or sent. Register it with the operator; BANCO_NO_DISPONIBLE: No enabled bank serves the account; as the code of a balance or statement read, the bank refused the query (a `motivo_rechazo`, like the other such codes below); DESTINATION_REFUSED: A webhook URL to an address webhooks may not reach; ENDPOINT_LIMIT: The mode has its 10 webhook endpoints already: delete one first; any other `motivo_rechazo`: A balance or statement read the bank refused, named by its `motivo_rechazo` (API contract 7.2) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefusedRequestError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    eliminarWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Endpoint id (we_…)
                 * @example we_ejemplo
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointEliminado"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description No endpoint of this merchant and mode */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    actualizarWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Endpoint id (we_…)
                 * @example we_ejemplo
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointUpdateRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description No endpoint of this merchant and mode */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description Not `application/json`, or a charset other than UTF-8 */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    rotarSecretoWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Endpoint id (we_…)
                 * @example we_ejemplo
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description No endpoint of this merchant and mode */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    listarEntregasWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Endpoint id (we_…)
                 * @example we_ejemplo
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEntrega"][];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description No endpoint of this merchant and mode */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    listarEntregasTransaccion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Transaction id
                 * @example txn_ejemplo
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEntrega"][];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description No transaction of this merchant and mode */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    reenviarEntrega: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Delivery id
                 * @example txn_ejemplo.v1.we_ejemplo
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEntrega"];
                };
            };
            /** @description A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description `x-switch-key` missing, malformed, invalid or inactive */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description No delivery of this merchant and mode */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying (until the current one-minute window ends). */
                    "retry-after"?: number;
                    /** @description Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas). */
                    "ratelimit-limit"?: number;
                    /** @description Requests this key has left in the current minute. */
                    "ratelimit-remaining"?: number;
                    /** @description Seconds until the current minute ends and the budget is whole again. */
                    "ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    eventoTransaccionAprobada: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event, the body's `type`
                 * @example transaccion.aprobada
                 */
                "x-service-event": "transaccion.aprobada";
                /**
                 * @description `sha256=` + lowercase hex HMAC-SHA256 of the raw body with the endpoint secret
                 * @example sha256=5e2bf0e8e1bd9d5c21a6c0a0b1b94f1a3d6a2f2c4b7e1f0a9c8d7e6f5a4b3c2d
                 */
                "x-service-signature": string;
                /**
                 * @description Id of the delivery, the same on every attempt (Standard Webhooks)
                 * @example msg_2b7e1f0a9c8d7e6f
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the Unix epoch when this attempt was signed (Standard Webhooks)
                 * @example 1795532578
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64 signature>` entries (Standard Webhooks)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEvento"];
            };
        };
        responses: {
            /** @description Received: any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not accepted (e.g. the signature did not verify): any non-2xx answer is retried on the schedule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventoTransaccionLiquidada: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event, the body's `type`
                 * @example transaccion.liquidada
                 */
                "x-service-event": "transaccion.liquidada";
                /**
                 * @description `sha256=` + lowercase hex HMAC-SHA256 of the raw body with the endpoint secret
                 * @example sha256=5e2bf0e8e1bd9d5c21a6c0a0b1b94f1a3d6a2f2c4b7e1f0a9c8d7e6f5a4b3c2d
                 */
                "x-service-signature": string;
                /**
                 * @description Id of the delivery, the same on every attempt (Standard Webhooks)
                 * @example msg_2b7e1f0a9c8d7e6f
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the Unix epoch when this attempt was signed (Standard Webhooks)
                 * @example 1795532578
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64 signature>` entries (Standard Webhooks)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEvento"];
            };
        };
        responses: {
            /** @description Received: any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not accepted (e.g. the signature did not verify): any non-2xx answer is retried on the schedule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventoTransaccionRechazada: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event, the body's `type`
                 * @example transaccion.rechazada
                 */
                "x-service-event": "transaccion.rechazada";
                /**
                 * @description `sha256=` + lowercase hex HMAC-SHA256 of the raw body with the endpoint secret
                 * @example sha256=5e2bf0e8e1bd9d5c21a6c0a0b1b94f1a3d6a2f2c4b7e1f0a9c8d7e6f5a4b3c2d
                 */
                "x-service-signature": string;
                /**
                 * @description Id of the delivery, the same on every attempt (Standard Webhooks)
                 * @example msg_2b7e1f0a9c8d7e6f
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the Unix epoch when this attempt was signed (Standard Webhooks)
                 * @example 1795532578
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64 signature>` entries (Standard Webhooks)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEvento"];
            };
        };
        responses: {
            /** @description Received: any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not accepted (e.g. the signature did not verify): any non-2xx answer is retried on the schedule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventoCobroEsperadoRecibido: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event, the body's `type`
                 * @example cobro_esperado.recibido
                 */
                "x-service-event": "cobro_esperado.recibido";
                /**
                 * @description `sha256=` + lowercase hex HMAC-SHA256 of the raw body with the endpoint secret
                 * @example sha256=5e2bf0e8e1bd9d5c21a6c0a0b1b94f1a3d6a2f2c4b7e1f0a9c8d7e6f5a4b3c2d
                 */
                "x-service-signature": string;
                /**
                 * @description Id of the delivery, the same on every attempt (Standard Webhooks)
                 * @example msg_2b7e1f0a9c8d7e6f
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the Unix epoch when this attempt was signed (Standard Webhooks)
                 * @example 1795532578
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64 signature>` entries (Standard Webhooks)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCobroEsperado"];
            };
        };
        responses: {
            /** @description Received: any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not accepted (e.g. the signature did not verify): any non-2xx answer is retried on the schedule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventoCobroEsperadoPagoParcial: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event, the body's `type`
                 * @example cobro_esperado.pago_parcial
                 */
                "x-service-event": "cobro_esperado.pago_parcial";
                /**
                 * @description `sha256=` + lowercase hex HMAC-SHA256 of the raw body with the endpoint secret
                 * @example sha256=5e2bf0e8e1bd9d5c21a6c0a0b1b94f1a3d6a2f2c4b7e1f0a9c8d7e6f5a4b3c2d
                 */
                "x-service-signature": string;
                /**
                 * @description Id of the delivery, the same on every attempt (Standard Webhooks)
                 * @example msg_2b7e1f0a9c8d7e6f
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the Unix epoch when this attempt was signed (Standard Webhooks)
                 * @example 1795532578
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64 signature>` entries (Standard Webhooks)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCobroEsperado"];
            };
        };
        responses: {
            /** @description Received: any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not accepted (e.g. the signature did not verify): any non-2xx answer is retried on the schedule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventoCobroEsperadoSobrepago: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event, the body's `type`
                 * @example cobro_esperado.sobrepago
                 */
                "x-service-event": "cobro_esperado.sobrepago";
                /**
                 * @description `sha256=` + lowercase hex HMAC-SHA256 of the raw body with the endpoint secret
                 * @example sha256=5e2bf0e8e1bd9d5c21a6c0a0b1b94f1a3d6a2f2c4b7e1f0a9c8d7e6f5a4b3c2d
                 */
                "x-service-signature": string;
                /**
                 * @description Id of the delivery, the same on every attempt (Standard Webhooks)
                 * @example msg_2b7e1f0a9c8d7e6f
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the Unix epoch when this attempt was signed (Standard Webhooks)
                 * @example 1795532578
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64 signature>` entries (Standard Webhooks)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCobroEsperado"];
            };
        };
        responses: {
            /** @description Received: any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not accepted (e.g. the signature did not verify): any non-2xx answer is retried on the schedule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventoCobroEsperadoVencido: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event, the body's `type`
                 * @example cobro_esperado.vencido
                 */
                "x-service-event": "cobro_esperado.vencido";
                /**
                 * @description `sha256=` + lowercase hex HMAC-SHA256 of the raw body with the endpoint secret
                 * @example sha256=5e2bf0e8e1bd9d5c21a6c0a0b1b94f1a3d6a2f2c4b7e1f0a9c8d7e6f5a4b3c2d
                 */
                "x-service-signature": string;
                /**
                 * @description Id of the delivery, the same on every attempt (Standard Webhooks)
                 * @example msg_2b7e1f0a9c8d7e6f
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the Unix epoch when this attempt was signed (Standard Webhooks)
                 * @example 1795532578
                 */
                "webhook-timestamp": string;
                /**
                 * @description Space-separated `v1,<base64 signature>` entries (Standard Webhooks)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCobroEsperado"];
            };
        };
        responses: {
            /** @description Received: any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not accepted (e.g. the signature did not verify): any non-2xx answer is retried on the schedule */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
