import * as v from 'valibot';
import { AppError, bodyIsAnArray, rejected } from '../errors.js';
import { EXAMPLE_FONT_BASE64 } from '../fonts/exampleFont.js';
import { FONT_FORMATS, readFontFile, type FontFacts } from '../fonts/fontFile.js';
import { FONT_TTL_SECONDS, type FontStore } from '../themes/fontStore.js';
import { parseOrReject } from '../invoice/issues.js';
import type { DocumentBody, Operation, PdfRenderer } from './operation.js';
import { parseRequestJson } from './requestJson.js';

/** The default of FONT_MAX_BYTES (config.ts). */
const FONT_MAX_BYTES_DEFAULT = 2 * 1024 * 1024;

const FontJsonSchema = v.strictObject(
  {
    font_base64: v.pipe(
      v.string('must be the font file as base64'),
      v.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64 (A–Z, a–z, 0–9, +, /, = padding)'),
      v.description('The font file (TTF, OTF, WOFF or WOFF2), base64.'),
    ),
  },
  'is not a field of a font upload (font_base64)',
);

/** A font upload as the work takes it: the file and what fontkit read from it. */
interface FontUpload {
  bytes: Uint8Array;
  facts: FontFacts;
}

const MEDIA_TYPES = [
  ...Object.values(FONT_FORMATS).map((format) => format.mediaType),
  'font/sfnt',
  'application/font-woff',
  'application/octet-stream',
  'application/json',
];

function readUpload(bytes: Uint8Array): FontUpload {
  return { bytes, facts: readFontFile(bytes) };
}

function parseJsonForm(body: unknown): FontUpload {
  if (Array.isArray(body)) throw bodyIsAnArray();
  const { font_base64 } = parseOrReject(FontJsonSchema, body);
  return readUpload(Buffer.from(font_base64, 'base64'));
}

function parseDocument(document: DocumentBody): FontUpload {
  if (document.mediaType !== 'application/json') return readUpload(document.bytes);
  return parseJsonForm(parseRequestJson(new TextDecoder().decode(document.bytes)));
}

/**
 * PUT /v1/fonts (free): stores a brand font for themes (`theme.font`, `theme.heading_font`) and
 * customer template packages (`fonts`). fontkit reads the file on the compute pool (parse); the
 * work then has Chromium load it (its sanitiser must accept it too) and stores it. The bytes are
 * kept only to be embedded in PDFs: no route serves them back.
 */
export function fontOperations(
  store: FontStore | undefined,
  renderer: PdfRenderer | undefined,
  maxBytes = FONT_MAX_BYTES_DEFAULT,
): Operation[] {
  const put: Operation<FontUpload> = {
    method: 'PUT',
    path: '/v1/fonts',
    operationId: 'v1_fonts_put',
    // A font file is uploaded over HTTP (PUT /v1/fonts, the raw bytes); as an MCP tool its entry
    // pushed the e-invoice tools' profile enum out of tools/list's budget.
    mcpTool: false,
    summary: 'Store a brand font and get its id (free)',
    description: `Stores a font file for invoices to print in, and answers its id ("sha256:" and the SHA-256 of the file: the same file, the same id), its family, style (normal, italic), weight (100–900) and format. The body is the file itself (Content-Type font/ttf, font/otf, font/woff, font/woff2 or application/octet-stream), at most ${maxBytes} bytes; or JSON { "font_base64" }. Not an MCP tool: an agent uploads the file over HTTP. A theme then names it: "font": "<id>" (body text), "heading_font", "font_bold", "heading_font_bold"; characters the font lacks are drawn in the service's fonts. The PDF embeds only the glyphs it uses. Refused with 400 font_invalid and the reason: not a font, truncated or damaged, a collection (.ttc), a variable font (upload static instances), a licence that forbids embedding (OS/2 fsType), too large, or refused by Chromium's font sanitiser. By uploading you confirm you hold the right to embed the font in documents; the service never serves it back. A stored font expires ${FONT_TTL_SECONDS / 86400} days after it was last put.`,
    tag: 'Invoices',
    request: {
      schema: FontJsonSchema,
      example: { font_base64: EXAMPLE_FONT_BASE64 },
      parse: parseJsonForm,
      document: { mediaTypes: MEDIA_TYPES, limitBytes: Math.ceil((maxBytes * 4) / 3) + 4096, parseDocument },
    },
    response: {
      contentType: 'application/json',
      description: 'The font id, what it is, and how long it is kept.',
      example: {
        id: 'sha256:…',
        family: 'Brand Sans',
        subfamily: 'Regular',
        postscript_name: 'BrandSans-Regular',
        style: 'normal',
        weight: 400,
        format: 'woff2',
        bytes: 48_210,
        glyphs: 412,
        characters: 380,
        expires_in_seconds: FONT_TTL_SECONDS,
      },
    },
    handle: async ({ bytes, facts }) => {
      if (bytes.length > maxBytes)
        throw rejected('font_invalid', `The font file is larger than ${maxBytes} bytes.`, [
          {
            path: 'font',
            code: 'too_large',
            message: `is ${bytes.length} bytes; at most ${maxBytes} (FONT_MAX_BYTES)`,
          },
        ]);
      // The compute workers build the list without a store or renderer; this work runs on the main thread.
      if (!store) throw new Error('v1_fonts_put has no font store');
      if (!renderer?.checkFont)
        throw new AppError('renderer_unavailable', 'Fonts cannot be checked now: the PDF renderer is not running.');
      await renderer.checkFont(bytes);
      await store.put({
        facts,
        base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
      });
      return { body: { ...facts, expires_in_seconds: FONT_TTL_SECONDS } };
    },
  };
  return [put];
}
