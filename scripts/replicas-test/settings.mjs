// The knobs and fixed timings of `npm run test:replicas`.

export const PROJECT = 'invoice-pdf-x402-replicas';
export const REPLICAS = 3;
export const BUYERS = Number(process.env.REPLICAS_BUYERS ?? 3);
export const PAUSE_MS = Number(process.env.REPLICAS_PAUSE_MS ?? 300);
export const PHASE_MS = Number(process.env.REPLICAS_PHASE_MS ?? 15_000);
// The notice period of the rolling step: HAProxy checks /readyz every second and takes a server out
// after two failures (docker/lb/haproxy.cfg); deploy/base/deployment.yaml waits 10 s for slower
// endpoint propagation.
export const NOTICE_MS = 3_000;
// Shorter authorizations than the default 300 s, so that a claim orphaned by the killed replica
// (it died before settling) expires within the run; longer than the payment store's lease (60 s),
// so that work it parked before settling can still be collected (src/payment/paymentProcessor.ts).
export const MAX_TIMEOUT_SECONDS = 150;
