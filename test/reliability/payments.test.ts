// Reliability of the paid route, properties 1, 2, 5, 8 and 9: real x402 clients
// paying on a real local chain through the real local facilitator, the real app and renderer.
// What is counted comes from the chain itself (Transfer and AuthorizationUsed events, balances).
// One world for all of them (payments/paidWorld.ts); each property in a file of its own.
import { capacityTests } from './payments/capacity.js';
import { facilitatorFaultTests } from './payments/facilitatorFaults.js';
import { paidLoadTests } from './payments/paidLoad.js';
import { usePaidWorld } from './payments/paidWorld.js';
import { shutdownTests } from './payments/shutdown.js';

const paid = usePaidWorld();
paidLoadTests(paid);
facilitatorFaultTests(paid);
capacityTests(paid);
shutdownTests(paid);
