import { EXAMPLE_PROFILE_REQUESTS } from '../src/einvoice/example.js';
for (const [k, v] of Object.entries(EXAMPLE_PROFILE_REQUESTS)) { console.log(`=== ${k}`); console.log(JSON.stringify(v, null, 2)); }
