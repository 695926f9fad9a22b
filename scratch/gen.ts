import { writeFileSync } from 'node:fs';
import { eInvoiceXml } from '../src/einvoice/eInvoiceDocuments.js';
import { prepareEInvoice } from '../src/einvoice/prepareEInvoice.js';
import { EXAMPLE_EINVOICE } from '../src/einvoice/example.js';
const p = prepareEInvoice({ ...EXAMPLE_EINVOICE, buyer_reference: '04011000-12345-03' });
writeFileSync('/tmp/n27/ex-cii.xml', eInvoiceXml(p, 'cii'));
writeFileSync('/tmp/n27/ex-ubl.xml', eInvoiceXml(p, 'ubl'));
