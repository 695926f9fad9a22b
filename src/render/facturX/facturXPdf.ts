import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { formatXref, objectRange, objectText, PdfLayoutError, readPdfLayout, trailerRef } from '../pdfXref.js';
import { SRGB_IDENTIFIER, srgbProfile } from './srgbProfile.js';
import { buildXmp } from './xmp.js';

/**
 * Turns the invoice PDF Chromium printed (pdfInfo.ts already made its Info dictionary
 * deterministic) into a Factur-X PDF/A-3b: the catalog gains the XMP metadata, an sRGB output
 * intent, the embedded XML (`/AF`, `/Names /EmbeddedFiles`); the trailer gains an `/ID`. Written
 * by hand over the one classic xref table Chromium writes (pdfXref.ts) instead of through a PDF
 * library: no dependency, the page content stays byte for byte what Chromium
 * wrote, and the output is a single revision whose bytes depend only on the input (docs/e-invoices.md, "Why no
 * PDF library").
 *
 * What Chromium's PDF already brings to PDF/A-3b (checked on every file by the tests): every font
 * embedded (TrueType subsets as CIDFontType2 with CIDToGIDMap), a binary comment after the header,
 * no encryption, no JavaScript; annotations (links, should a template add some) must carry the
 * print flag PDF/A requires, which is checked here.
 */
export interface FacturXOptions {
  /** The CII XML (Factur-X EN 16931 profile, or ZUGFeRD's XRECHNUNG profile). */
  xml: Buffer;
  /** XMP fx:ConformanceLevel: EN 16931, or XRECHNUNG (ZUGFeRD 2.x). */
  conformanceLevel: 'EN 16931' | 'XRECHNUNG';
  /** The embedded file's name: factur-x.xml, or xrechnung.xml for the XRECHNUNG profile. Default factur-x.xml. */
  fileName?: string;
}

const FACTUR_X_FILE_NAME = 'factur-x.xml';

/** Catalog keys this step writes; a Chromium PDF that already has one is refused, never merged. */
const CATALOG_KEYS = ['/Metadata', '/OutputIntents', '/AF', '/Names'] as const;

export function toFacturXPdf(pdf: Buffer, options: FacturXOptions): Buffer {
  const layout = readPdfLayout(pdf);
  const rootNumber = trailerRef(layout, 'Root');
  const infoNumber = trailerRef(layout, 'Info');
  const catalogRange = objectRange(pdf, layout, rootNumber);
  const catalog = objectText(pdf, layout, rootNumber).trim();
  if (!catalog.startsWith('<<') || !catalog.endsWith('>>')) throw new PdfLayoutError('the catalog is not a dictionary');
  for (const key of CATALOG_KEYS) {
    if (new RegExp(`${key}\\b`).test(catalog)) throw new PdfLayoutError(`the catalog already has ${key}`);
  }
  checkAnnotations(pdf, layout);
  const info = readInfo(objectText(pdf, layout, infoNumber));

  const first = layout.entries.length;
  const [metadata, profile, intent, embedded, fileSpec] = [0, 1, 2, 3, 4].map((offset) => first + offset) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const fileName = options.fileName ?? FACTUR_X_FILE_NAME;
  if (!/^[A-Za-z0-9._-]+$/.test(fileName)) throw new PdfLayoutError(`unsafe embedded file name ${fileName}`);
  const xmp = buildXmp({
    title: info.title ?? '',
    author: info.author ?? '',
    creator: info.creator ?? '',
    producer: info.producer,
    created: xmpDate(info.creationDate),
    // xmpDate throws without a usable ModDate: the /ModDate below is always the Info's.
    modified: xmpDate(info.modDate),
    documentFileName: fileName,
    conformanceLevel: options.conformanceLevel,
  });
  const xml = options.xml;
  const newObjects: [number, Buffer][] = [
    [metadata, streamObject(metadata, '/Type /Metadata /Subtype /XML', Buffer.from(xmp, 'utf8'))],
    [profile, streamObject(profile, '/N 3 /Filter /FlateDecode', deflateSync(srgbProfile()))],
    [
      intent,
      dictionaryObject(
        intent,
        `/Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier (${SRGB_IDENTIFIER}) /Info (${SRGB_IDENTIFIER}) /RegistryName (http://www.color.org) /DestOutputProfile ${profile} 0 R`,
      ),
    ],
    [
      embedded,
      streamObject(
        embedded,
        `/Type /EmbeddedFile /Subtype /text#2Fxml /Filter /FlateDecode /Params <</Size ${xml.length} /CheckSum <${createHash('md5').update(xml).digest('hex').toUpperCase()}> /ModDate ${info.modDate}>>`,
        deflateSync(xml),
      ),
    ],
    [
      fileSpec,
      dictionaryObject(
        fileSpec,
        `/Type /Filespec /F (${fileName}) /UF (${fileName}) /Desc (Factur-X invoice, ${options.conformanceLevel}) /AFRelationship /Alternative /EF <</F ${embedded} 0 R /UF ${embedded} 0 R>>`,
      ),
    ],
  ];

  const additions = [
    `/Metadata ${metadata} 0 R`,
    `/OutputIntents [${intent} 0 R]`,
    `/AF [${fileSpec} 0 R]`,
    `/Names <</EmbeddedFiles <</Names [(${fileName}) ${fileSpec} 0 R]>>>>`,
  ].join(' ');
  const newCatalog = Buffer.from(`${rootNumber} 0 obj\n${catalog.slice(0, -2)} ${additions}>>\nendobj`, 'latin1');
  const shift = newCatalog.length - (catalogRange.end - catalogRange.start);
  const entries = layout.entries.map((entry) =>
    entry.inUse && entry.offset > catalogRange.start ? { ...entry, offset: entry.offset + shift } : entry,
  );

  // PDF/A-3 is based on PDF 1.7; the header keeps its length, so no offset moves.
  const header = Buffer.from(pdf.subarray(0, catalogRange.start));
  if (!/^%PDF-1\.\d\r?\n/.test(header.toString('latin1', 0, 10))) throw new PdfLayoutError('no %PDF-1.x header line');
  header.write('%PDF-1.7', 0, 'latin1');
  const parts: Buffer[] = [header, newCatalog, pdf.subarray(catalogRange.end, layout.xrefOffset)];
  let offset = parts.reduce((sum, part) => sum + part.length, 0);
  for (const [, bytes] of newObjects) {
    entries.push({ offset, generation: 0, inUse: true });
    parts.push(bytes);
    offset += bytes.length;
  }
  // The file identifier: a digest of what the file says, so the same request gives the same bytes.
  const id = createHash('md5').update(pdf).update(xml).digest('hex').toUpperCase();
  const trailer = `<</Size ${entries.length} /Root ${rootNumber} 0 R /Info ${infoNumber} 0 R /ID [<${id}> <${id}>]>>`;
  parts.push(Buffer.from(`${formatXref(entries)}trailer\n${trailer}\nstartxref\n${offset}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

/**
 * PDF/A wants every annotation printable (/F with the print bit, 4) and no hidden ones. The
 * templates have no links today; should one appear and Chromium write it without the flag, the
 * finishing step fails loudly (a 500, nothing settled) instead of selling a non-conforming file.
 */
function checkAnnotations(pdf: Buffer, layout: ReturnType<typeof readPdfLayout>): void {
  layout.entries.forEach((entry, number) => {
    if (!entry.inUse || number === 0) return;
    const head = pdf.toString('latin1', entry.offset, entry.offset + 200).split('endobj')[0]!;
    if (!/\/Type\s*\/Annot\b/.test(head)) return;
    const flags = /\/F\s+(\d+)/.exec(objectText(pdf, layout, number));
    if (!flags || (Number(flags[1]) & 4) === 0 || (Number(flags[1]) & 3) !== 0) {
      throw new PdfLayoutError(`annotation object ${number} is not marked printable (/F 4), as PDF/A requires`);
    }
  });
}

function dictionaryObject(number: number, body: string): Buffer {
  return Buffer.from(`${number} 0 obj\n<<${body}>>\nendobj\n`, 'latin1');
}

function streamObject(number: number, dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`${number} 0 obj\n<<${dictionary} /Length ${data.length}>>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream\nendobj\n', 'latin1'),
  ]);
}

interface InfoFields {
  title: string | undefined;
  author: string | undefined;
  creator: string | undefined;
  producer: string | undefined;
  /** The PDF date string as written, e.g. (D:20261102000000+00'00'). */
  creationDate: string | undefined;
  modDate: string | undefined;
}

/** The Info dictionary as pdfInfo.ts writes it: text strings in hex (UTF-16BE) or literal, dates literal. */
function readInfo(text: string): InfoFields {
  const raw = (key: string) => new RegExp(`/${key}\\s*(\\((?:\\\\.|[^\\\\)])*\\)|<[0-9A-Fa-f\\s]*>)`).exec(text)?.[1];
  const decoded = (key: string) => {
    const value = raw(key);
    return value === undefined ? undefined : decodePdfString(value);
  };
  return {
    title: decoded('Title'),
    author: decoded('Author'),
    creator: decoded('Creator'),
    producer: decoded('Producer'),
    creationDate: raw('CreationDate'),
    modDate: raw('ModDate'),
  };
}

export function decodePdfString(value: string): string {
  if (value.startsWith('<')) {
    const hex = value.slice(1, -1).replace(/\s+/g, '');
    const bytes = Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex');
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return bytes.subarray(2).swap16().toString('utf16le');
    return bytes.toString('latin1');
  }
  const body = value.slice(1, -1).replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, escape: string) => {
    const named: Record<string, string> = {
      n: '\n',
      r: '\r',
      t: '\t',
      b: '\b',
      f: '\f',
      '(': '(',
      ')': ')',
      '\\': '\\',
    };
    return named[escape] ?? String.fromCharCode(parseInt(escape, 8));
  });
  if (body.startsWith('\u00fe\u00ff')) return Buffer.from(body.slice(2), 'latin1').swap16().toString('utf16le');
  return body;
}

/** (D:20261102000000+00'00') → 2026-11-02T00:00:00+00:00; the XMP must state the same instant. */
export function xmpDate(pdfDate: string | undefined): string {
  const match =
    pdfDate && /^\(D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:([+-])(\d{2})'(\d{2})'?|Z)?/.exec(pdfDate);
  if (!match) throw new PdfLayoutError(`the Info dictionary has no usable date (${pdfDate ?? 'none'})`);
  const [, year, month, day, hour, minute, second, sign, zoneHour, zoneMinute] = match;
  const zone = sign ? `${sign}${zoneHour}:${zoneMinute}` : 'Z';
  return `${year}-${month}-${day}T${hour}:${minute}:${second}${zone}`;
}
