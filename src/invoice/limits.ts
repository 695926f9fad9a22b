/**
 * Every limit of the invoice request. The first group is the minimal invoice's; the rest
 * are the limits of the optional real-world fields (docs/invoice.md lists them all).
 */
export const LIMITS = {
  lineItems: { min: 1, max: 200 },
  invoiceNumber: 64,
  partyName: 120,
  partyAddress: 400,
  partyEmail: 254,
  partyPhone: 40,
  partyTaxId: 60,
  description: 300,
  quantity: 1_000_000,
  unitPrice: 1_000_000_000,
  taxRate: 100,
  discount: 1_000_000_000,
  notes: 2000,
  paymentInstructions: 1000,

  partyStreet: 200,
  partyCity: 100,
  partyPostalCode: 20,
  itemCode: 64,
  reference: 64,
  taxExemptionReason: 300,
  /** Major units; the real bound is the invoice total (amount_paid_exceeds_total). */
  amountPaid: 100_000_000_000_000,
  /** Major units either way: a rounding of the amount due (BT-114), not a discount. */
  roundingAmount: 1,
  customFields: 10,
  customFieldLabel: 40,
  customFieldValue: 200,
  label: 200,
  localeTag: 35,
  /** Decoded logo bytes (256 KiB): a logo is inlined into every render of the invoice. */
  logoBytes: 256 * 1024,
  /** Pixels on either side; a logo prints at most 60 × 18 mm (invoice.css). */
  logoSide: 4000,
} as const;
