import { createHash } from 'node:crypto';
import { AppError } from '../../errors.js';
import { retryAfterSecondsOf } from '../errorAnswers.js';
import type { CallOutcome } from '../../operations/callOperation.js';
import type { Answer } from '../../operations/operation.js';

/** The tool results of the MCP server (MCP CallToolResult, with the x402 MCP transport's shapes). */
export type ToolResult = {
  content: (
    | { type: 'text'; text: string }
    | {
        type: 'resource';
        resource: { uri: string; mimeType: string; blob?: string; text?: string; _meta?: Record<string, unknown> };
      }
  )[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

/** What a tool call ends with: an operation's outcome (its tool's result is written from it) or a result already. */
export type ToolCallEnd = { tool: string; outcome: CallOutcome } | { result: ToolResult };

/**
 * An answer as a tool result: JSON as structuredContent (and its text), a file as an embedded
 * resource (base64 blob for binary, text for XML) with its size and, for a PDF, its page count (X-Page-Count).
 */
export function resultOfAnswer(
  toolName: string,
  answer: Pick<Answer, 'contentType' | 'body' | 'headers' | 'status'>,
): ToolResult {
  const result = fileOrJson(toolName, answer);
  return (answer.status ?? 200) >= 400 ? { ...result, isError: true } : result;
}

function fileOrJson(toolName: string, answer: Pick<Answer, 'contentType' | 'body' | 'headers'>): ToolResult {
  const contentType = answer.contentType ?? 'application/json';
  const { body } = answer;
  if (contentType.startsWith('application/json') || (!Buffer.isBuffer(body) && typeof body === 'object')) {
    const value = Buffer.isBuffer(body) ? JSON.parse(body.toString('utf8')) : body;
    return {
      content: [{ type: 'text', text: JSON.stringify(value) }],
      structuredContent: value as Record<string, unknown>,
    };
  }
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(String(body));
  const mimeType = contentType.split(';')[0]!.trim();
  const fileName = fileNameOf(answer.headers?.['Content-Disposition'], mimeType);
  const uri = `invoice://${toolName}/${encodeURIComponent(fileName)}`;
  const textual = /xml|^text\//.test(mimeType);
  // A stored result keeps its headers, so a replay names the pages the first answer named.
  const pageCount = answer.headers?.['X-Page-Count'];
  const pages = pageCount === undefined ? undefined : Number(pageCount);
  const meta = { fileName };
  return {
    content: [
      {
        type: 'resource',
        resource: textual
          ? { uri, mimeType, text: bytes.toString('utf8'), _meta: meta }
          : { uri, mimeType, blob: bytes.toString('base64'), _meta: meta },
      },
    ],
    // sha256: what a paid call's offer-receipt receipt paid for (HTTP sends it as Content-Digest).
    structuredContent: {
      fileName,
      contentType: mimeType,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      uri,
      ...(pages !== undefined ? { pages } : {}),
    },
  };
}

const EXTENSIONS: Record<string, string> = { 'application/pdf': 'pdf', 'application/zip': 'zip' };

/** The file name HTTP's Content-Disposition gives (invoice.pdf, INV-1-cii.xml), else result.<extension>. */
function fileNameOf(disposition: string | undefined, mimeType: string): string {
  const named = disposition && /filename="([^"]+)"/.exec(disposition)?.[1];
  if (named) return named;
  return `result.${EXTENSIONS[mimeType] ?? (mimeType.includes('xml') ? 'xml' : 'bin')}`;
}

/**
 * A failure as a tool error: the same { error: { code, message, issues? } } as the HTTP body, plus
 * `retry_after_seconds` where HTTP would send Retry-After (rate_limited, renderer_busy, ...): a tool
 * result has no headers.
 */
export function resultOfError(error: AppError): ToolResult {
  const retryAfterSeconds = retryAfterSecondsOf(error);
  const { error: fields } = error.toBody();
  const body = { error: { ...fields, ...(retryAfterSeconds ? { retry_after_seconds: retryAfterSeconds } : {}) } };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

/**
 * A call's outcome as a tool result; a paid call's in the x402 MCP transport (x402 specs, transports-v2/mcp.md): a challenge
 * is an isError result whose structuredContent is the PaymentRequired (and content[0].text its
 * x402/error wrapper); a paid result carries the settlement in _meta["x402/payment-response"].
 */
function resultOfOutcome(toolName: string, outcome: CallOutcome): ToolResult {
  switch (outcome.kind) {
    case 'payment-required': {
      const paymentRequired = outcome.paymentRequired as unknown as Record<string, unknown>;
      return {
        isError: true,
        structuredContent: paymentRequired,
        content: [
          {
            type: 'text',
            text: JSON.stringify({ 'x402/error': { code: 402, message: outcome.message, data: paymentRequired } }),
          },
        ],
      };
    }
    case 'settle-failed': {
      const { receipt } = outcome;
      const data = {
        x402Version: 2,
        error: receipt.errorReason ?? 'settlement_failed',
        'x402/payment-response': receipt,
      };
      return {
        isError: true,
        structuredContent: data,
        content: [
          {
            type: 'text',
            text: JSON.stringify({
              'x402/error': { code: 402, message: 'Payment settlement failed; nothing was delivered.', data },
            }),
          },
        ],
      };
    }
    case 'answered':
      return resultOfAnswer(toolName, outcome.answer);
    case 'paid':
      return {
        ...resultOfAnswer(toolName, outcome.answer),
        _meta: { 'x402/payment-response': outcome.receipt },
      };
    case 'replayed':
    case 'collected':
      return {
        ...resultOfAnswer(toolName, outcome.result),
        _meta: { 'x402/payment-response': outcome.result.receipt },
      };
  }
}

/**
 * A call's end as the JSON text of its tool result, for the endpoint's own tools/call answer: a
 * JSON answer's bytes go in as they are (structuredContent and, as MCP asks for compatibility, the
 * same text as a text block) instead of being parsed and serialised again on the event loop.
 */
export function resultJsonOf(end: ToolCallEnd): Buffer[] {
  if ('result' in end) return [Buffer.from(JSON.stringify(end.result))];
  const { outcome } = end;
  if (outcome.kind === 'answered' && Buffer.isBuffer(outcome.answer.body) && (outcome.answer.status ?? 200) < 400) {
    const contentType = outcome.answer.contentType ?? '';
    if (contentType.startsWith('application/json')) {
      const json = outcome.answer.body;
      return [
        Buffer.from(
          `{"content":[{"type":"text","text":${JSON.stringify(json.toString('utf8'))}}],"structuredContent":`,
        ),
        json,
        Buffer.from('}'),
      ];
    }
  }
  return [Buffer.from(JSON.stringify(resultOfOutcome(end.tool, outcome)))];
}

/** A call's end as a tool result object (the SDK's path). */
export const resultOf = (end: ToolCallEnd): ToolResult =>
  'result' in end ? end.result : resultOfOutcome(end.tool, end.outcome);
