import { AppError, internalError, validationFailed } from '../../errors.js';
import type { OperationCaller } from '../../operations/callOperation.js';
import { jsonTextOf } from '../../operations/requestJson.js';
import type { PayerAdmission } from '../../payment/paymentProcessor.js';
import { FIELD_SCHEMA_TOOL_NAME, fieldSchemaOf } from './fieldSchema.js';
import type { McpTool } from './mcpTools.js';
import { resultOfAnswer, resultOfError, type ToolCallEnd } from './toolResults.js';

/** One tools/call as a transport read it. */
export interface ToolCall {
  name: string;
  /**
   * The arguments: their JSON text's UTF-8 bytes (split from the envelope on the compute pool,
   * mcpEndpoint.ts), or as parsed (the SDK's path); `isObject` false when they are not a JSON object.
   */
  args: { bytes: Uint8Array; isObject: boolean } | { value: unknown } | undefined;
  /** `_meta["x402/payment"]`, the x402 MCP transport's payment. */
  payment: unknown;
  /** `_meta["sign-in-with-x"]`: a sign-in-with-x payload (the SIGN-IN-WITH-X header's JSON), for a free re-download. */
  signIn?: unknown;
  signal: AbortSignal;
  /** The payer rate limit of the calling client address (rateLimit.ts), the same buckets as HTTP's. */
  admitPayer?: PayerAdmission | undefined;
}

export interface ToolCallerOptions {
  tools: readonly McpTool[];
  /** The call core HTTP uses too (same compute pool, processor, store and lifecycle). */
  caller: OperationCaller;
  logError(error: unknown, context: Record<string, unknown>): void;
}

const notAnObject = () =>
  validationFailed([{ path: '', code: 'invalid_type', message: 'Expected the arguments to be a JSON object.' }]);

/**
 * A tool call: its arguments and payment handed to the call core HTTP uses (parse and validate on
 * the compute pool before anything about payment). What is wrong with a call (an unknown tool,
 * arguments that are not an object, an invalid field, a payment for another price) is an isError
 * result naming the path, never a protocol error and never charged.
 */
export function toolCaller(options: ToolCallerOptions): (call: ToolCall) => Promise<ToolCallEnd> {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  return async (call) => {
    try {
      const isObject =
        call.args === undefined ||
        ('bytes' in call.args
          ? call.args.isObject
          : call.args.value !== null && typeof call.args.value === 'object' && !Array.isArray(call.args.value));
      if (call.name === FIELD_SCHEMA_TOOL_NAME) {
        if (!isObject) throw notAnObject();
        const args =
          call.args === undefined
            ? {}
            : 'bytes' in call.args
              ? JSON.parse(jsonTextOf(call.args.bytes))
              : call.args.value;
        const answer = fieldSchemaOf(options.tools, args as Record<string, unknown>);
        return { result: resultOfAnswer(call.name, { body: answer }) };
      }
      const tool = byName.get(call.name);
      if (!tool) throw new AppError('not_found', `No tool named ${call.name}; tools/list names them.`);
      if (!isObject) throw notAnObject();
      const body =
        call.args === undefined ? { value: {} } : 'bytes' in call.args ? { bytes: call.args.bytes } : call.args;
      const outcome = await options.caller.call(tool.route, {
        body,
        ...(call.payment === undefined ? {} : { payment: { payload: call.payment } }),
        signal: call.signal,
        hooks: {
          admitPayer: call.admitPayer,
          ...(call.signIn === undefined ? {} : { signIn: { read: () => call.signIn } }),
        },
      });
      return { tool: tool.name, outcome };
    } catch (thrown) {
      const error = thrown instanceof AppError ? thrown : internalError(thrown);
      if (!(thrown instanceof AppError)) options.logError(thrown, { tool: call.name });
      return { result: resultOfError(error) };
    }
  };
}
