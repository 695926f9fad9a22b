// What the offloaded-routes tests share (offloaded-routes.test.ts, offloaded-paid-routes.test.ts):
// a request as a case, the answer compared (status, the headers that matter, the body), with the
// only values that differ between two answers masked, and an MCP client of an app.
import { gzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eInvoiceXml } from '../../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE } from '../../src/einvoice/example.js';
import { prepareEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { helperOperations } from '../../src/operations/helperOperations.js';

export type Case = {
  name: string;
  path: string;
  method?: string;
  body: string | Buffer;
  headers?: Record<string, string | undefined>;
};

export const json = (value: unknown) => JSON.stringify(value);
export const helperExample = (path: string) =>
  structuredClone(helperOperations().find((operation) => operation.path === path)!.request!.example) as Record<
    string,
    unknown
  >;

/** The document bodies of a document row (operations/operation.ts `document`): read, refused, and not read at all. */
export function documentCases(path: string): Case[] {
  const ownCii = eInvoiceXml(prepareEInvoice(EXAMPLE_EINVOICE), 'cii');
  const ownUbl = eInvoiceXml(prepareEInvoice(EXAMPLE_EINVOICE), 'ubl');
  return [
    { name: `${path} CII document`, path, body: ownCii, headers: { 'content-type': 'application/xml' } },
    {
      name: `${path} UBL document, text/xml, locale`,
      path: `${path}?locale=de-DE`,
      body: ownUbl,
      headers: { 'content-type': 'text/xml' },
    },
    {
      name: `${path} gzip document`,
      path,
      body: gzipSync(ownCii),
      headers: { 'content-type': 'application/xml', 'content-encoding': 'gzip' },
    },
    { name: `${path} JSON { xml }`, path, body: json({ xml: ownCii }) },
    {
      name: `${path} JSON { xml }, locale parameter`,
      path: `${path}?locale=fr-FR`,
      body: json({ xml: ownCii, locale: 'de-DE' }),
    },
    {
      name: `${path} DOCTYPE`,
      path,
      body: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "x">]><x>&e;</x>',
      headers: { 'content-type': 'application/xml' },
    },
    { name: `${path} not XML`, path, body: 'hello', headers: { 'content-type': 'application/xml' } },
    { name: `${path} unknown root`, path, body: '<Invoice/>', headers: { 'content-type': 'application/xml' } },
    { name: `${path} not a PDF`, path, body: 'not a pdf', headers: { 'content-type': 'application/pdf' } },
    {
      name: `${path} unknown locale`,
      path: `${path}?locale=xx-XX`,
      body: ownCii,
      headers: { 'content-type': 'application/xml' },
    },
    { name: `${path} a form`, path, body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    {
      name: `${path} document over the limit`,
      path,
      body: Buffer.alloc(8 * 1024 * 1024 + 1, 0x20),
      headers: { 'content-type': 'application/xml' },
    },
  ];
}

export async function answer(app: { url: string }, request: Case) {
  const response = await fetch(`${app.url}${request.path}`, {
    method: request.method ?? 'POST',
    headers: Object.fromEntries(
      Object.entries({ 'content-type': 'application/json', ...request.headers }).filter(
        (entry): entry is [string, string] => Boolean(entry[1]),
      ),
    ),
    body: typeof request.body === 'string' ? request.body : new Uint8Array(request.body),
    signal: AbortSignal.timeout(30_000),
  });
  const headers = ['content-type', 'content-length', 'payment-required', 'retry-after'].map((name) => {
    const value = response.headers.get(name);
    return name === 'payment-required' && value
      ? withoutFreshSignIn(Buffer.from(value, 'base64').toString('utf8'))
      : value;
  });
  return { status: response.status, headers, body: withoutFreshSignIn(await response.text()) };
}

/**
 * Every 402 offers sign-in-with-x with a fresh random nonce and the second it was made
 * (payment/signInWithX/signInChallenge.ts): those two values differ between any two answers, so
 * they are masked; everything else must be the same bytes.
 */
export function withoutFreshSignIn(text: string): string {
  // Also inside JSON text that is itself a JSON string (MCP's text content: \" quotes).
  return text.replace(/(nonce\\?":\\?")[0-9a-f]{16}/g, '$1…').replace(/(issuedAt\\?":\\?")[0-9T:-]+Z/g, '$1…');
}

/** An MCP client connected to the app's /mcp. */
export async function connectMcp(app: { url: string }): Promise<Client> {
  const client = new Client({ name: 'offloaded-routes-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
  return client;
}
