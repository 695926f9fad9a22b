import Handlebars from 'handlebars';
import type { InboundInvoice } from '../../invoice/inboundInvoice.js';
import { paymentQrSvg } from '../paymentQrSvg.js';
import type { InboundText } from './inboundText.js';

/** "Visualisation of an electronic invoice…" and the syntax · envelope · BT-24 · profile line. */
export function inboundBanner(
  doc: InboundInvoice,
  notes: string[],
  { labels }: InboundText,
): { banner: string; specification: string; notices: { lang: string; text: string }[] } {
  return {
    banner: labels.inbound_visualisation,
    specification: [
      doc.syntaxLabel,
      doc.envelope === 'sbdh' ? 'SBDH' : null,
      doc.customization || null,
      doc.profile ?? null,
    ]
      .filter(Boolean)
      .join(' · '),
    notices: notes.map((note) => ({ lang: 'en', text: `${labels.inbound_unknown_specification} ${note}` })),
  };
}

/** KOD I of an FA(3): the QR code of its KSeF link, captioned with its KSeF number or OFFLINE. */
export function ksefQrView(
  ksefQr: { link: string; caption: string } | undefined,
): { svg: Handlebars.SafeString; link: string; caption: string } | null {
  if (!ksefQr) return null;
  // The link is built from digits, a date and Base64URL only; the QR SVG is geometry only.
  return {
    svg: new Handlebars.SafeString(paymentQrSvg(ksefQr.link, { size: '32mm' }).svg),
    link: ksefQr.link,
    caption: ksefQr.caption,
  };
}
