import type { Issue } from '../errors.js';
import { countryName } from './localeFormat.js';
import type { InvoiceLocale } from './locales.js';
import type { Party } from './partySchema.js';

/**
 * Window envelopes: where the buyer's address and the seller's one-line return address print on
 * page 1 so that a folded invoice shows them through the envelope's window, and where the fold
 * marks go. Millimetres from the sheet's top-left corner; where each number comes from is in
 * docs/designs.md ("Window envelopes"). The renderer turns a row into CSS custom properties
 * (styles/envelope.css, templates/partials/envelope.hbs), so a customer template that keeps the
 * partial gets the same layout.
 */
export interface EnvelopeLayout {
  paper: 'A4' | 'Letter';
  /** The address field (the window): its left edge, top, width and height. */
  left: number;
  top: number;
  width: number;
  /** The return-address / notes zone at the field's top, then the address zone below it. */
  returnHeight: number;
  addressHeight: number;
  /**
   * The clear space between the address text and every edge of the address zone (the window):
   * USPS asks for 1/8" (Publication 25, 3-9); 0 where the standard's zone is the text's own.
   */
  clearance: number;
  /** Lines the address zone holds inside the clearance (at the 4.1 mm line of styles/envelope.css). */
  maxLines: number;
  /** Fold marks (from the top) and the hole-punch mark, drawn in page 1's left margin (src/render/envelopeView.ts). */
  folds: number[];
  hole: number | null;
}

/** 2.042" (3 2/3" − 1 5/8"): the top of a #10's address window on the sheet resting at its bottom. */
const US_10_WINDOW_TOP = (11 / 3 - 1.625) * 25.4;

const DIN_B: EnvelopeLayout = {
  paper: 'A4',
  left: 20,
  top: 45,
  width: 85,
  returnHeight: 17.7,
  addressHeight: 27.3,
  clearance: 0,
  maxLines: 6,
  folds: [105, 210],
  hole: 148.5,
};

export const ENVELOPES = {
  // DIN 5008 form B: address field 85 × 45 mm, 20 mm from the left, 45 mm from the top.
  'din-5008-b': DIN_B,
  // Form A: the same field 18 mm higher (27 mm from the top), folds at 87 and 192 mm.
  'din-5008-a': { ...DIN_B, top: 27, folds: [87, 192] },
  // Swiss Post, left window: address area 85.5 × 25.5 mm at 22 mm from the left, 60 mm from the top.
  'ch-left': {
    paper: 'A4',
    left: 22,
    top: 60 - 12,
    width: 85.5,
    returnHeight: 12,
    addressHeight: 25.5,
    clearance: 0,
    maxLines: 6,
    folds: [105, 210],
    hole: null,
  },
  // SN 010130 right addressing: the field 118 mm from the left, as wide as fits inside the page's
  // 16 mm right margin (75 mm: Chromium shrinks a page whose content overflows it).
  'ch-right': {
    paper: 'A4',
    left: 118,
    top: 60 - 12,
    width: 75,
    returnHeight: 12,
    addressHeight: 25.5,
    clearance: 0,
    maxLines: 6,
    folds: [105, 210],
    hole: null,
  },
  // US #10 (4 1/8" × 9 1/2") on US Letter folded in thirds (panels of 3 2/3"), its address window
  // 1 1/8" × 4 1/2", 7/8" from the envelope's left and 1/2" from its bottom (the industry's usual
  // window; USPS sets none). With the sheet resting at the envelope's bottom the window shows the
  // sheet from 2.042" (3 2/3" − 1 5/8") down for 1 1/8"; across, the 1" the sheet can slide in the
  // envelope leaves 3.5" seen in every position, from 7/8". The address keeps USPS's 1/8"
  // (3.175 mm) clear of each edge: text from 1" to 4 1/4" across and 2.167" to 3.042" down
  // (5 lines). Return zone from 5/8" down, as before. docs/designs.md has the sources.
  'us-10': {
    paper: 'Letter',
    left: 22.225,
    top: 15.875,
    width: 88.9,
    returnHeight: US_10_WINDOW_TOP - 15.875,
    addressHeight: 28.575,
    clearance: 3.175,
    maxLines: 5,
    folds: [93.1, 186.2],
    hole: null,
  },
} as const satisfies Record<string, EnvelopeLayout>;

export type EnvelopeName = keyof typeof ENVELOPES;
export const ENVELOPE_NAMES = Object.keys(ENVELOPES) as EnvelopeName[];

/**
 * The buyer's address as the window shows it, by the postal rules: name, contact, the address
 * lines, no blank line, and the destination country's name (in capitals) only for a letter
 * across a border (the buyer's country differs from the seller's).
 */
export function envelopeAddressLines(buyer: Party, seller: Party, locale: InvoiceLocale): string[] {
  const structured = buyer.street !== undefined || buyer.city !== undefined || buyer.postal_code !== undefined;
  const cityLine = [buyer.postal_code, buyer.city].filter(Boolean).join(' ');
  const lines = [buyer.name, buyer.contact_name, ...(structured ? [buyer.street, cityLine] : [buyer.address])].flatMap(
    (part) => (part ?? '').split('\n'),
  );
  const crossBorder = buyer.country !== undefined && buyer.country !== seller.country;
  if (crossBorder) lines.push(countryName(buyer.country!, locale).toLocaleUpperCase(locale.language));
  return lines.map((line) => line.trim()).filter((line) => line !== '');
}

/** The seller in one line for the return zone: name, street, postal code and city. */
export function envelopeReturnLine(seller: Party): string {
  const cityLine = [seller.postal_code, seller.city].filter(Boolean).join(' ');
  const address = seller.street !== undefined || cityLine !== '' ? [seller.street, cityLine] : [seller.address];
  return [seller.name, ...address]
    .flatMap((part) => (part ?? '').split('\n'))
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(' · ');
}

/** An envelope's refusals, before payment: an address the window cannot hold, a paper it does not take. */
export function envelopeIssues(
  name: EnvelopeName,
  invoice: { buyer: Party; seller: Party },
  locale: InvoiceLocale,
  swissQrBill: boolean,
): Issue[] {
  const layout: EnvelopeLayout = ENVELOPES[name];
  const issues: Issue[] = [];
  const lines = envelopeAddressLines(invoice.buyer, invoice.seller, locale);
  if (lines.length > layout.maxLines)
    issues.push({
      path: 'buyer',
      code: 'address_too_long',
      message: `has ${lines.length} address lines (name, contact, address, country for abroad, without blank lines); the ${name} window holds at most ${layout.maxLines}`,
    });
  if (lines.length < 2)
    issues.push({ path: 'buyer', code: 'address_missing', message: `needs a postal address for the ${name} window` });
  if (swissQrBill && layout.paper !== 'A4')
    issues.push({
      path: 'envelope',
      code: 'paper_conflict',
      message: `${name} prints on US Letter, but a Swiss QR-bill is defined on A4`,
    });
  return issues;
}
