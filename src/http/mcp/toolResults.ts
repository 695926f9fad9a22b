import { createHash } from 'node:crypto';
import { AppError } from '../../errors.js';
import { retryAfterSecondsOf } from '../errorAnswers.js';
import type { CallOutcome } from '../../operations/callOperation.js';
import type { Answer } from '../../operations/operation.js';

/** The tool results of the MCP server (MCP CallToolResult, with the x402 MCP transport's shapes). */
export type ToolResult = {
  content: (
    | { type: 'text'; text: string }
    | { type: 'resource'; resource: { uri: string; mimeType: string; blob?: string; text?: string } }
  )[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

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
  const extension =
    mimeType === 'application/pdf'
      ? 'pdf'
      : mimeType.includes('xml')
        ? 'xml'
        : mimeType === 'application/zip'
          ? 'zip'
          : 'bin';
  const uri = `invoice://${toolName}/result.${extension}`;
  const textual = /xml|^text\//.test(mimeType);
  // A stored result keeps its headers, so a replay names the pages the first answer named.
  const pageCount = answer.headers?.['X-Page-Count'];
  const pages = pageCount === undefined ? undefined : Number(pageCount);
  return {
    content: [
      {
        type: 'resource',
        resource: textual
          ? { uri, mimeType, text: bytes.toString('utf8') }
          : { uri, mimeType, blob: bytes.toString('base64') },
      },
    ],
    // sha256: what a paid call's offer-receipt receipt paid for (HTTP sends it as Content-Digest).
    structuredContent: {
      contentType: mimeType,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      uri,
      ...(pages !== undefined ? { pages } : {}),
    },
  };
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
export function resultOfOutcome(toolName: string, outcome: CallOutcome): ToolResult {
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
