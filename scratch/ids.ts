import { leitwegIdOk, kboOk, gs1CheckDigitOk, luhnOk } from '../src/einvoice/identifiers.js';
for (const id of ['04011000-12345-03','04011000-12345-34','04011000-12346-97','04011000-12352-79','991-33333TEST-33','04011000-12345-04']) console.log(id, leitwegIdOk(id));
console.log(kboOk('0123456749'), gs1CheckDigitOk('4000001123452'), gs1CheckDigitOk('5790000435951'), luhnOk('732829320'), luhnOk('73282932000074'));
