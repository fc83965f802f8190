import {
  EXAMPLE_EXPECTED_ID,
  exampleExpected,
  EXAMPLE_DELIVERY_ID,
  EXAMPLE_ENDPOINT_ID,
  EXAMPLE_REVERSO_ID,
  EXAMPLE_TXN_ID,
  exampleDeliveries,
  exampleDetail,
  exampleEndpoint,
  exampleOperation,
  exampleRedelivery,
  exampleRotation,
} from './sandbox';

/**
 * The examples of the OpenAPI document, by operationId. Each request example succeeds as it is when
 * sent from `/docs` ("Try it out") with any test key: test-mode instruments, the simulated bank, and
 * the sandbox's example operation for `consultar` and `reverso` (./sandbox.ts). test/api/openapi-examples.test.ts
 * sends every one of them to the switch. Responses show what the simulated bank answers.
 */
const cobrador = {
  tipo: 'cuenta',
  valor: '01910000000000000001',
  banco: '0191',
  identificacion: 'J123456789',
  nombre: 'Mi Tienda',
};
const pagador = { tipo: 'telefono', valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana Pérez' };
const cuentaDestino = { tipo: 'cuenta', valor: '01020000000000000002', banco: '0102', identificacion: 'V12345678', nombre: 'Ana Pérez' };

const TOKEN_KEY = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const cobro = { monto: { valor: 75, moneda: 'VES' }, concepto: 'Pedido 1234', canal: 'web', cobrador, pagador };
/**
 * The cobrar example has a key of its own (an OTP the caller captured itself, SPEC 4.2): under the
 * token example's key, any other amount, payer or account is refused with 422 TOKEN_MISMATCH, and tools
 * that vary the examples (schemathesis) would read that as a valid request refused.
 */
const COBRO_KEY = '4e6a8c0e-2b4d-4f6a-8c1e-3a5c7e9b1d2f';
const VERIFY_KEY = '7c3e9a1b-5d2f-4e8a-9b6c-0d1e2f3a4b5c';

const simulated = (idempotencyKey: string, estado: string, descripcion: string, id: string) => ({
  id,
  estado,
  banco_usado: 'bnc',
  referencia_banco: `TEST-${idempotencyKey.slice(0, 8)}`,
  endtoend: null,
  motivo_rechazo: null,
  intentos: 1,
  raw: { simulated: true, codigo: '00', descripcion },
});

export interface ExampleObject {
  summary: string;
  description?: string;
  value: unknown;
}
export interface OperationExamples {
  /** Examples of the JSON request body. */
  request?: Record<string, ExampleObject>;
  /** Example of each query parameter. */
  parameters?: Record<string, string>;
  /** Examples of the 200 answer. */
  response: Record<string, ExampleObject>;
}

export const OPERATION_EXAMPLES: Record<string, OperationExamples> = {
  cobrarToken: {
    request: { otp: { summary: 'Ask the payer bank for an OTP', value: { idempotency_key: TOKEN_KEY, ...cobro } } },
    response: {
      aceptada: {
        summary: 'OTP requested (simulated in test mode)',
        value: simulated(TOKEN_KEY, 'ACEPTADA', 'OTP simulado, no se envió mensaje', 'txn_3f0c9a1e5b7d4c2a8e6f1a0b9c8d7e6f'),
      },
    },
  },
  cobrar: {
    request: {
      cobro: {
        summary: 'Collect with an OTP',
        description:
          'After `cobrar/token`, send the token request again under its idempotency_key, with `otp` added. Here, an OTP the caller captured itself (no token step), under a key of its own.',
        value: { idempotency_key: COBRO_KEY, ...cobro, otp: '12345678' },
      },
    },
    response: {
      aceptada: {
        summary: 'Collected (ACEPTADA counts as success; LIQUIDADA once settled)',
        value: simulated(COBRO_KEY, 'ACEPTADA', 'Aprobada (simulada)', 'txn_8b2e4d6f0a1c3e5a7b9d1f3a5c7e9b0d'),
      },
    },
  },
  pagar: {
    request: {
      pagoMovil: {
        summary: 'Pago móvil to a phone: settles at once',
        value: {
          idempotency_key: '6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60',
          monto: { valor: 150.5, moneda: 'VES' },
          concepto: 'Pago a proveedor',
          canal: 'api',
          ordenante: cobrador,
          beneficiario: pagador,
          proposito: 'proveedor',
          via: 'pago_movil',
        },
      },
      creditoInmediato: {
        summary: 'Immediate credit to an account: ACEPTADA, LIQUIDADA once settled',
        value: {
          idempotency_key: '0b7e2c1a-5a8f-4c3e-9d21-7f6e5d4c3b2a',
          monto: { valor: 2500, moneda: 'VES' },
          concepto: 'Nómina noviembre',
          canal: 'api',
          ordenante: cobrador,
          beneficiario: cuentaDestino,
          proposito: 'nomina',
          via: 'credito_inmediato',
        },
      },
    },
    response: {
      liquidada: {
        summary: 'Pago móvil settled',
        value: simulated(
          '6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60',
          'LIQUIDADA',
          'Aprobada (simulada)',
          'txn_5d7f9b1d3f5a7c9e1b3d5f7a9c1e3b5d',
        ),
      },
      aceptada: {
        summary: 'Immediate credit accepted, settling',
        value: simulated('0b7e2c1a-5a8f-4c3e-9d21-7f6e5d4c3b2a', 'ACEPTADA', 'Aprobada (simulada)', 'txn_2a4c6e8a0c2e4a6c8e0a2c4e6a8c0e2a'),
      },
    },
  },
  consultar: {
    request: {
      ejemplo: {
        summary: 'The sandbox example operation (any test key)',
        description: `\`${EXAMPLE_TXN_ID}\` answers in test mode for every key; put the \`id\` of one of your own operations instead.`,
        value: { id: EXAMPLE_TXN_ID },
      },
    },
    response: {
      liquidada: {
        summary: 'Settled',
        value: exampleOperation('test', EXAMPLE_TXN_ID),
      },
    },
  },
  reverso: {
    request: {
      ejemplo: {
        summary: 'Reverse the sandbox example operation (any test key)',
        value: { idempotency_key: '3c5e7a9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d', id: EXAMPLE_TXN_ID, concepto: 'Devolución pedido 1234' },
      },
    },
    response: {
      noSoportado: {
        summary: 'The rail has no cancellation',
        value: exampleOperation('test', EXAMPLE_REVERSO_ID),
      },
    },
  },
  listarBancos: {
    response: {
      test: {
        summary: 'Test mode with the simulated bank',
        value: [{ banco: 'bnc', capabilities: ['cobrar', 'pagar', 'token', 'consultar', 'saldo', 'movimientos'] }],
      },
    },
  },
  consultarSaldo: {
    parameters: { cuenta: '01910000000000000001', moneda: 'VES' },
    response: {
      saldo: {
        summary: 'Balance',
        value: {
          cuenta: '01910000000000000001',
          banco: 'bnc',
          moneda: 'VES',
          disponible: 1000000,
          contable: 1000000,
          bloqueado: 0,
          consultado_en: '2026-11-24T15:04:05.123Z',
        },
      },
    },
  },
  verificarPago: {
    request: {
      captura: {
        summary: "A payer's receipt: reference, day, amount, phone and bank",
        value: {
          idempotency_key: VERIFY_KEY,
          monto: { valor: 150.25, moneda: 'VES' },
          banco_pagador: '0102',
          telefono_pagador: '04141234567',
          referencia: '004512873311',
          fecha: '2026-11-24',
          cobrador,
        },
      },
    },
    response: {
      verificado: {
        summary: 'Found: the movement is now claimed by this verification',
        value: {
          id: 'ver_5d1f0c2b8a7e4f6d9c3b2a10',
          estado: 'VERIFICADO',
          banco: 'bnc',
          monto_declarado: 150.25,
          monto_recibido: 150.25,
          movimiento: { referencia: '004512873311', fecha: '2026-11-24', hora: '10:15:02', monto: 150.25 },
          reintentar_despues: null,
          reclamado_por: null,
          motivo_rechazo: null,
          verificado_en: '2026-11-24T14:20:00.000Z',
        },
      },
      no_encontrado: {
        summary: 'Not in the statement yet: ask again after reintentar_despues',
        value: {
          id: 'ver_5d1f0c2b8a7e4f6d9c3b2a10',
          estado: 'NO_ENCONTRADO',
          banco: 'bnc',
          monto_declarado: 150.25,
          monto_recibido: null,
          movimiento: null,
          reintentar_despues: '2026-11-24T14:22:00.000Z',
          reclamado_por: null,
          motivo_rechazo: null,
          verificado_en: '2026-11-24T14:20:00.000Z',
        },
      },
    },
  },
  simularPagoMovilEntrante: {
    request: {
      pago: {
        summary: 'A payer sends 150.25 VES by pago móvil to your account, now',
        value: { monto: { valor: 150.25, moneda: 'VES' }, banco_pagador: '0102', telefono_pagador: '04141234567', cobrador },
      },
    },
    response: {
      recibido: {
        summary: "What the payer's receipt shows",
        value: {
          referencia: '004512873311',
          fecha: '2026-11-24',
          hora: '10:15',
          monto: 150.25,
          banco: 'bnc',
          cuenta: '01910000000000000001',
          fecha_banco: '2026-11-24',
        },
      },
    },
  },
  listarMovimientos: {
    parameters: { cuenta: '01910000000000000001', desde: '2026-11-01', hasta: '2026-11-30', limite: '50' },
    response: {
      pagina: {
        summary: 'One page of a statement',
        value: {
          cuenta: '01910000000000000001',
          banco: 'bnc',
          moneda: 'VES',
          desde: '2026-11-01',
          hasta: '2026-11-30',
          movimientos: [
            {
              fecha: '2026-11-24',
              hora: '11:04:05',
              referencia: 'TEST-6f1c8a52',
              concepto: 'Pago a proveedor',
              tipo: 'debito',
              monto: 150.5,
              saldo: 999849.5,
            },
          ],
          siguiente: null,
        },
      },
    },
  },
  exportarTransacciones: {
    parameters: {
      operacion: 'pagar',
      estado: 'LIQUIDADA',
      banco: 'bnc',
      desde: '2026-11-01',
      hasta: '2026-11-30',
      id: 'txn_5d7f9b1d3f5a7c9e1b3d5f7a9c1e3b5d',
      idempotency_key: '6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60',
      formato: 'numerico',
    },
    response: {
      csv: {
        summary: 'The header, then one line per operation (only the header until you have made operations that match)',
        value:
          'id,creada,operacion,estado,motivo_rechazo,monto,moneda,concepto,contraparte,banco_usado,referencia_banco,idempotency_key,actualizada\r\n' +
          'txn_5d7f9b1d3f5a7c9e1b3d5f7a9c1e3b5d,2026-11-24T15:02:57.901Z,pagar,LIQUIDADA,,150.50,VES,Pago a proveedor,Proveedora Caracas,bnc,TEST-6f1c8a52,6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60,2026-11-24T15:02:58.123Z\r\n',
      },
    },
  },
  crearCobroEsperado: {
    request: {
      pedido: {
        summary: 'Await 250.50 VES for order 42 on the test account (expires in 24 hours)',
        value: {
          idempotency_key: '0c8e5a2f-7b1d-4e3a-9f6c-2d4b6a8c0e1f',
          monto: { valor: 250.5, moneda: 'VES' },
          concepto: 'Pedido 42',
          orden_id: 'orden-42',
          cobrador: { tipo: 'cuenta', valor: '01910000000000000777', banco: '0191', identificacion: 'J123456789', nombre: 'Tienda Demo' },
        },
      },
    },
    response: {
      esperado: {
        summary: 'Waiting: show `instrucciones` to the payer',
        value: {
          ...exampleExpected('test', EXAMPLE_EXPECTED_ID)!,
          id: 'esp_5d7f9b1d3f5a7c9e1b3d5f7a',
          estado: 'ESPERADO',
          recibido: 0,
          movimientos: [],
          historial: [],
          actualizado_en: '2026-11-24T14:00:00.000Z',
        },
      },
    },
  },
  listarCobrosEsperados: {
    parameters: { estado: 'RECIBIDO', limite: '20' },
    response: {
      pagina: {
        summary: 'One page (empty until you have expected payments that match)',
        value: { cobros: [exampleExpected('test', EXAMPLE_EXPECTED_ID)!], siguiente: null },
      },
    },
  },
  detalleCobroEsperado: {
    parameters: { id: EXAMPLE_EXPECTED_ID },
    response: { ejemplo: { summary: 'The sandbox example, paid in full', value: exampleExpected('test', EXAMPLE_EXPECTED_ID)! } },
  },
  listarTransacciones: {
    parameters: {
      operacion: 'pagar',
      estado: 'LIQUIDADA',
      banco: 'bnc',
      desde: '2026-11-01',
      hasta: '2026-11-30',
      id: 'txn_5d7f9b1d3f5a7c9e1b3d5f7a9c1e3b5d',
      idempotency_key: '6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60',
      limite: '20',
    },
    response: {
      pagina: {
        summary: 'One page (empty until you have made operations that match the filters)',
        value: {
          transacciones: [
            {
              id: 'txn_5d7f9b1d3f5a7c9e1b3d5f7a9c1e3b5d',
              operacion: 'pagar',
              estado: 'LIQUIDADA',
              banco_usado: 'bnc',
              monto: 150.5,
              moneda: 'VES',
              concepto: 'Pago a proveedor',
              contraparte: 'Proveedora Caracas',
              idempotency_key: '6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60',
              referencia_banco: 'TEST-6f1c8a52',
              motivo_rechazo: null,
              creada: '2026-11-24T15:02:57.901Z',
              actualizada: '2026-11-24T15:02:58.123Z',
            },
          ],
          siguiente: null,
        },
      },
    },
  },
  detalleTransaccion: {
    parameters: { id: EXAMPLE_TXN_ID },
    response: { ejemplo: { summary: 'The sandbox example operation, settled', value: exampleDetail('test', EXAMPLE_TXN_ID) } },
  },
  listarEntregasTransaccion: {
    parameters: { id: EXAMPLE_TXN_ID },
    response: {
      entregada: { summary: 'Delivered at the first attempt', value: exampleDeliveries('test', 'transaction', EXAMPLE_TXN_ID) },
    },
  },
  listarWebhooks: {
    response: {
      endpoints: { summary: 'The endpoints of the key mode (no secrets)', value: [exampleEndpoint('test', EXAMPLE_ENDPOINT_ID)] },
    },
  },
  crearWebhook: {
    request: {
      endpoint: {
        summary: 'Every event to one URL',
        description: 'Each call registers one more endpoint. In live mode the URL must be https and public.',
        value: {
          url: 'https://tienda.example/webhooks/switch',
          events: ['transaccion.aprobada', 'transaccion.liquidada', 'transaccion.rechazada'],
        },
      },
    },
    response: {
      creado: {
        summary: 'Registered: keep the secret, it is shown only here',
        value: {
          ...exampleEndpoint('test', EXAMPLE_ENDPOINT_ID),
          id: 'we_3f0c9a1e5b7d4c2a',
          secret: 'whsec_c2VjcmV0byBkZSBlamVtcGxvIHBhcmEgbG9zIGRvY3M=',
        },
      },
    },
  },
  actualizarWebhook: {
    parameters: { id: EXAMPLE_ENDPOINT_ID },
    request: {
      eventos: {
        summary: 'Only settlements and rejections',
        description: `\`${EXAMPLE_ENDPOINT_ID}\` is the sandbox sample endpoint (any test key; nothing is stored); put the \`id\` of one of your endpoints instead.`,
        value: { events: ['transaccion.liquidada', 'transaccion.rechazada'], active: true },
      },
    },
    response: {
      actualizado: {
        summary: 'Changed',
        value: exampleEndpoint('test', EXAMPLE_ENDPOINT_ID, { events: ['transaccion.liquidada', 'transaccion.rechazada'], active: true }),
      },
    },
  },
  rotarSecretoWebhook: {
    parameters: { id: EXAMPLE_ENDPOINT_ID },
    response: {
      rotado: {
        summary: 'New secret; the previous one signs beside it until rotacion_hasta',
        value: { ...exampleRotation('test', EXAMPLE_ENDPOINT_ID), rotacion_hasta: '2026-11-25T15:02:58.123Z' },
      },
    },
  },
  eliminarWebhook: {
    parameters: { id: EXAMPLE_ENDPOINT_ID },
    response: { eliminado: { summary: 'Deleted', value: { id: EXAMPLE_ENDPOINT_ID, eliminado: true } } },
  },
  listarEntregasWebhook: {
    parameters: { id: EXAMPLE_ENDPOINT_ID },
    response: {
      entregas: { summary: 'Newest first, with every attempt', value: exampleDeliveries('test', 'endpoint', EXAMPLE_ENDPOINT_ID) },
    },
  },
  reenviarEntrega: {
    parameters: { id: EXAMPLE_DELIVERY_ID },
    response: {
      pendiente: {
        summary: 'Queued again: attempted now',
        value: { ...exampleRedelivery('test', EXAMPLE_DELIVERY_ID), proximo_intento: '2026-11-24T15:10:00.000Z' },
      },
    },
  },
};
