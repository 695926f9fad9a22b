import type { InboundInvoice, InParty } from '../invoice/inboundInvoice.js';
import type { InboundRender } from './inboundView.js';

/**
 * An inbound invoice with every section of the inbound page filled (payee, references, charges,
 * line details, attachments, other values, differing totals): templates.ts fills it at start-up,
 * so that an error in templates/partials/inbound-*.hbs stops the service there, not at a request.
 */
const party = (name: string, country: string): InParty => ({
  name,
  tradingName: undefined,
  ids: ['0088: 4000000000000'],
  legalId: 'HRB 1',
  vatId: `${country}123456789`,
  taxRegistration: undefined,
  legalInfo: undefined,
  endpoint: 'EM: invoices@example.com',
  address: { lines: ['Street 1'], city: 'City', postalCode: '12345', subdivision: undefined, country },
  contactName: 'Contact',
  phone: '+49 30 1234',
  email: 'contact@example.com',
});

const invoice: InboundInvoice = {
  syntax: 'cii',
  document: 'CrossIndustryInvoice',
  envelope: null,
  customization: 'urn:cen.eu:en16931:2017',
  profile: undefined,
  typeCode: '380',
  number: 'WARM-UP-1',
  issueDate: '2026-01-01',
  dueDate: '2026-01-31',
  taxPointDate: undefined,
  currency: 'EUR',
  taxCurrency: undefined,
  notes: [{ subject: 'AAI', text: 'Note' }],
  references: [{ bt: 'BT-13', value: 'PO-1' }, { bt: 'BT-12', value: 'C-1' }],
  seller: party('Seller', 'DE'),
  buyer: party('Buyer', 'FR'),
  payee: party('Payee', 'DE'),
  taxRepresentative: undefined,
  delivery: { name: 'Site', locationId: undefined, address: undefined, date: '2026-01-01' },
  periodStart: '2026-01-01',
  periodEnd: '2026-01-31',
  paymentMeans: [{ code: '58', text: undefined, account: 'DE75512108001245126199', accountName: 'Seller', bic: undefined, card: undefined, mandate: undefined, debitedAccount: undefined }],
  paymentReference: 'WARM-UP-1',
  paymentTerms: '30 days',
  allowances: [{ charge: true, amount: '1.00', base: undefined, percent: undefined, reason: 'Freight', reasonCode: 'FC', category: 'S', rate: '19' }],
  breakdown: [{ category: 'S', rate: '19', basis: '11.00', tax: '2.09', exemptionReason: undefined, exemptionCode: undefined }],
  totals: { lineTotal: '10.00', allowanceTotal: undefined, chargeTotal: '1.00', taxBasis: '11.00', taxTotal: '2.09', taxTotalAccounting: undefined, grandTotal: '13.09', prepaid: undefined, rounding: undefined, duePayable: '13.09' },
  lines: [
    {
      id: '1', note: 'Line note', name: 'Item', description: 'Description', sellerItemId: 'A-1', buyerItemId: undefined, standardItemId: undefined,
      quantity: '1', unitCode: 'C62', net: '10.00', price: '10.00', baseQuantity: undefined, grossPrice: undefined, priceDiscount: undefined,
      category: 'S', rate: '19', allowances: [], periodStart: undefined, periodEnd: undefined, facts: [{ label: 'Colour', value: 'Blue' }],
    },
  ],
  attachments: [{ id: 'A1', description: 'Timesheet', filename: 'a.pdf', mimeCode: 'application/pdf', bytes: 10, uri: undefined }],
  otherValues: [{ bt: null, path: 'ExchangedDocument/Name', value: 'Example' }],
};

export const INBOUND_WARM_UP: InboundRender = {
  invoice,
  totals: {
    document: { line_total: '10.00', allowance_total: null, charge_total: '1.00', tax_basis: '11.00', tax_total: '2.09', grand_total: '13.09', prepaid: null, rounding: null, due_payable: '13.09' },
    recomputed: { line_total: '10.00', allowance_total: '0.00', charge_total: '1.00', tax_basis: '11.00', tax_total: '2.09', grand_total: '13.09', prepaid: '0.00', rounding: '0.00', due_payable: '13.09' },
    differences: [{ field: 'lines[0].net', bt: 'BT-131', rule: 'line_net', document: '10.00', recomputed: '10.00', difference: '0.00' }],
  },
  locale: 'de-DE',
  notes: ['A note'],
};
