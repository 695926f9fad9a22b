import * as v from 'valibot';
import { rejected } from '../../errors.js';
import { parseOrReject } from '../../invoice/issues.js';
import { LocaleField } from '../../invoice/schema.js';
import { VERIFICATION_CODES } from '../formats/registry.js';
import { INBOUND_LIMITS } from './limits.js';
import type { InboundFormat } from './readInbound.js';

/**
 * What an inbound request names: the document's bytes, its format and (render.pdf) the language.
 * Over HTTP the body is the document itself (application/xml, text/xml or application/pdf) and the
 * language the `locale` query parameter, or JSON { xml } / { pdf_base64 } / { p7m_base64 } with `locale`; over MCP
 * the arguments are that JSON. Only checked here: the document is read by readInboundRequest.ts.
 */
export interface InboundRequest {
  bytes: Uint8Array;
  format: InboundFormat;
  locale: string | undefined;
  /** Which document of a file that holds several (FatturaPA's bodies) is read: 1-based, 1 by default. */
  document?: number | undefined;
  /** render.pdf: the arguments of a format's verification code (FA(3)'s KOD I: ksef_number, ksef_environment), unchecked. */
  codeArguments?: Record<string, unknown> | undefined;
}

/** The document as itself, or (as MCP and the x402 bazaar describe the input) JSON { xml } / { pdf_base64 }. */
export const INBOUND_MEDIA_TYPES = [
  'application/xml',
  'text/xml',
  'application/pdf',
  'application/json',
  // A signed FatturaPA (.xml.p7m): read as XML inside its CAdES envelope (readInbound.ts).
  'application/pkcs7-mime',
] as const;

/** Base64 with white space anywhere; white space only after the padding, so no input makes it backtrack more than linearly. */
const BASE64 = /^[A-Za-z0-9+/\s]*(?:=\s*){0,2}$/;

/** The most documents a file is read for: a FatturaPA lot holds a few bodies, never thousands. */
const MAX_DOCUMENT = 1000;
const DocumentField = v.optional(
  v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(1, 'must be at least 1'),
    v.maxValue(MAX_DOCUMENT, `must be at most ${MAX_DOCUMENT}`),
    v.description(
      'A file that holds several documents (an Italian FatturaPA with several FatturaElettronicaBody): which one to read, from 1 (the default). inspect lists every one under `documents`; render.pdf without it prints every one, each from a new page.',
    ),
  ),
);
/** A query parameter's text as the number DocumentField checks (anything else stays text, and is refused as such). */
const documentParam = (text: string | undefined) =>
  text !== undefined && /^\d{1,6}$/.test(text) ? Number(text) : text;

/** render.pdf: the query parameters (or JSON fields) the formats' verification codes take (format.ts VerificationCodeHook). */
const CODE_ARGUMENTS: Record<string, v.OptionalSchema<v.GenericSchema, undefined>> = Object.assign(
  {},
  ...VERIFICATION_CODES.map((code) => code.arguments),
);
const CODE_ARGUMENT_NAMES = Object.keys(CODE_ARGUMENTS);
const codeArgumentsOf = (input: Record<string, unknown>) =>
  Object.fromEntries(CODE_ARGUMENT_NAMES.flatMap((name) => (input[name] === undefined ? [] : [[name, input[name]]])));

export const InboundArgumentsSchema = v.pipe(
  v.strictObject(
    {
      xml: v.optional(
        v.pipe(
          v.string('must be a string'),
          v.maxLength(INBOUND_LIMITS.xmlChars, `must be at most ${INBOUND_LIMITS.xmlChars} characters`),
          v.description(
            'The e-invoice XML (CII, UBL Invoice or CreditNote, optionally in a Peppol SBDH envelope) as text.',
          ),
        ),
      ),
      pdf_base64: v.optional(
        v.pipe(
          v.string('must be a string'),
          v.maxLength(
            Math.ceil(INBOUND_LIMITS.bodyBytes / 3) * 4 + 1024,
            `must be at most ${INBOUND_LIMITS.bodyBytes} bytes of PDF`,
          ),
          v.regex(BASE64, 'must be base64'),
          v.description('A Factur-X / ZUGFeRD / XRechnung hybrid PDF, base64-encoded; its embedded XML is read.'),
        ),
      ),
      p7m_base64: v.optional(
        v.pipe(
          v.string('must be a string'),
          v.maxLength(
            Math.ceil(INBOUND_LIMITS.bodyBytes / 3) * 4 + 1024,
            `must be at most ${INBOUND_LIMITS.bodyBytes} bytes of .p7m`,
          ),
          v.regex(BASE64, 'must be base64'),
          v.description(
            'A signed FatturaPA (.xml.p7m, a CAdES envelope in DER or BER, also signed again), base64-encoded: the XML inside is read, the signers reported, the signature not verified.',
          ),
        ),
      ),
      locale: LocaleField,
      document: DocumentField,
      ...CODE_ARGUMENTS,
    },
    'unknown property',
  ),
  v.description('Exactly one of xml, pdf_base64 or p7m_base64.'),
);

const exactlyOne = () =>
  rejected('validation_failed', 'Give exactly one of xml, pdf_base64 or p7m_base64.', [
    { path: '', code: 'validation_failed', message: 'give exactly one of xml, pdf_base64 or p7m_base64' },
  ]);

export function parseInboundArguments(body: unknown): InboundRequest {
  const input = parseOrReject(InboundArgumentsSchema, body);
  const given = [input.xml, input.pdf_base64, input.p7m_base64].filter((field) => field !== undefined);
  if (given.length !== 1) throw exactlyOne();
  const codeArguments = codeArgumentsOf(input);
  const common = { locale: input.locale, document: input.document, codeArguments };
  if (input.xml !== undefined) return { bytes: Buffer.from(input.xml, 'utf8'), format: 'xml', ...common };
  // A .p7m is read as the HTTP route reads application/pkcs7-mime: as XML, opened when it is DER (readInbound.ts).
  if (input.p7m_base64 !== undefined)
    return { bytes: Buffer.from(input.p7m_base64, 'base64'), format: 'xml', ...common };
  return { bytes: Buffer.from(input.pdf_base64!, 'base64'), format: 'pdf', ...common };
}

/**
 * The document itself (HTTP): its bytes, its media type, and the `locale` query parameter. `json`
 * is the JSON form's body, already parsed strictly by the caller (the `locale` parameter, when
 * given, wins over the body's).
 */
export function parseInboundDocument(
  document: { bytes: Uint8Array; mediaType: string; params: Record<string, string> },
  json?: { value: unknown },
): InboundRequest {
  const params: Record<string, unknown> = Object.fromEntries(
    ['locale', ...CODE_ARGUMENT_NAMES].flatMap((name) =>
      document.params[name] === undefined ? [] : [[name, document.params[name]]],
    ),
  );
  if (document.params.document !== undefined) params.document = documentParam(document.params.document);
  if (json) {
    const { value } = json;
    return parseInboundArguments(
      typeof value === 'object' && value !== null ? { ...(value as Record<string, unknown>), ...params } : value,
    );
  }
  const checked = parseOrReject(v.object({ locale: LocaleField, document: DocumentField, ...CODE_ARGUMENTS }), params);
  return {
    bytes: document.bytes,
    format: document.mediaType === 'application/pdf' ? 'pdf' : 'xml',
    locale: checked.locale,
    document: checked.document,
    codeArguments: codeArgumentsOf(checked),
  };
}
