import { luhnOk, kboOk, gs1CheckDigitOk } from '../src/einvoice/identifiers.js';
for (const s of ['552100554','443061841','542051180','356000000']) console.log(s, luhnOk(s));
for (let n = 4031707; n < 4031710; n++) { const b = String(n).padStart(8,'0'); const c = 97 - (Number(b) % 97); console.log('kbo', b + String(c).padStart(2,'0'), kboOk(b + String(c).padStart(2,'0'))); }
for (let d=0; d<10; d++) if (gs1CheckDigitOk('540000000000'+d)) console.log('gln', '540000000000'+d);
