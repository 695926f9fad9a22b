// Entry of the peak-sampler worker: workers do not inherit tsx's loader on Node 20, so register it
// here, then load the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./peakSamplerWorker.ts');
