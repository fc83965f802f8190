import { Type, type Static } from '@sinclair/typebox';

/** 4-digit central-bank code of a person's bank (SPEC 2.1). */
export const CodigoBanco = Type.String({ pattern: '^[0-9]{4}$', description: '4-digit central bank code' });

/** V/E natural person, J/G legal entity, P passport; 1 to 9 digits, no separators (DESIGN formats). */
export const Identificacion = Type.String({
  pattern: '^[VEJGP][0-9]{1,9}$',
  description: 'Person-type prefix V, E, J, G or P (upper case) followed by 1 to 9 digits',
  examples: ['V12345678'],
});

export const NumeroCuenta = Type.String({ pattern: '^[0-9]{20}$', description: '20-digit account number' });
export const NumeroTelefono = Type.String({ pattern: '^0[0-9]{10}$', description: '11-digit local mobile number with a leading 0' });

/** Control characters a name must not carry to a bank (CR/LF/NUL break fixed-width and XML rails). */
const NOT_CONTROL = '[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]';
/** Printable text with at least one non-blank character. */
export const NOMBRE_PATTERN = `^${NOT_CONTROL}*[^\\s\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]${NOT_CONTROL}*$`;

/**
 * Origin or destination of money. `valor` depends on `tipo`, expressed as if/then so that a
 * validation error names `valor` rather than a union branch.
 */
export const Instrumento = Type.Object(
  {
    tipo: Type.Union([Type.Literal('cuenta'), Type.Literal('telefono')]),
    valor: Type.String({ description: '20-digit account when tipo=cuenta; 11-digit phone with leading 0 when tipo=telefono' }),
    banco: CodigoBanco,
    identificacion: Identificacion,
    nombre: Type.String({
      minLength: 1,
      maxLength: 40,
      pattern: NOMBRE_PATTERN,
      description: '1 to 40 characters, not all blank; no control characters (C0, DEL, C1, U+2028, U+2029)',
    }),
  },
  {
    allOf: [
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keywords, not a thenable
      { if: { properties: { tipo: { const: 'cuenta' } }, required: ['tipo'] }, then: { properties: { valor: NumeroCuenta } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keywords, not a thenable
      { if: { properties: { tipo: { const: 'telefono' } }, required: ['tipo'] }, then: { properties: { valor: NumeroTelefono } } },
    ],
  },
);
export type Instrumento = Static<typeof Instrumento>;
