/**
 * The former names of an operation row (operations/operation.ts), so that a row written as a
 * RouteSpec keeps compiling while it is moved into the operation list (operations/operationList.ts;
 * docs/architecture.md says how). New code uses Operation and PricedOperation.
 */
export type { Operation as RouteSpec, PricedOperation as PricedRoute } from '../operations/operation.js';
