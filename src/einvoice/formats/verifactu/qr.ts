/**
 * The "QR tributario" URL (AEAT, Especificaciones del código QR v0.5.0, §3-§8): the cotejo
 * service's address, ValidarQR for an invoice of a VERI*FACTU system, ValidarQRNoVerifactu
 * otherwise, on the test host (prewww2.aeat.es) or production's, with exactly nif, numserie, fecha
 * and importe, each value encoded as AEAT's Java example does (java.net.URLEncoder, UTF-8).
 */
export type VerifactuMode = 'verifactu' | 'no_verifactu';
export type AeatEnvironment = 'production' | 'test';

const HOSTS: Record<AeatEnvironment, string> = {
  production: 'https://www2.agenciatributaria.gob.es',
  test: 'https://prewww2.aeat.es',
};

export interface QrParameters {
  /** IDEmisorFactura. */
  nif: string;
  /** NumSerieFactura as written in the record. */
  numserie: string;
  /** FechaExpedicionFactura, DD-MM-AAAA. */
  fecha: string;
  /** ImporteTotal as written in the record. */
  importe: string;
}

function qrBase(mode: VerifactuMode, environment: AeatEnvironment): string {
  return `${HOSTS[environment]}/wlpl/TIKE-CONT/${mode === 'verifactu' ? 'ValidarQR' : 'ValidarQRNoVerifactu'}`;
}

export function qrUrl(parameters: QrParameters, mode: VerifactuMode, environment: AeatEnvironment): string {
  const query = (['nif', 'numserie', 'fecha', 'importe'] as const)
    .map((name) => `${name}=${javaUrlEncode(parameters[name])}`)
    .join('&');
  return `${qrBase(mode, environment)}?${query}`;
}

/**
 * java.net.URLEncoder.encode(value, "UTF-8"): letters, digits and `.-*_` kept, space as `+`,
 * every other byte of the UTF-8 form as %XX in capitals. encodeURIComponent differs on
 * `!'()~` (kept there) and the space.
 */
export function javaUrlEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** The parameters of a ValidarQR / ValidarQRNoVerifactu URL, as inspect reports them; undefined for any other URL. */
export function readQrUrl(
  url: string,
): (QrParameters & { mode: VerifactuMode; environment: AeatEnvironment }) | undefined {
  const match = /^(https:\/\/[^/]+)\/wlpl\/TIKE-CONT\/(ValidarQR|ValidarQRNoVerifactu)\?(.*)$/.exec(url);
  if (!match) return undefined;
  const environment = (Object.keys(HOSTS) as AeatEnvironment[]).find((key) => HOSTS[key] === match[1]);
  if (!environment) return undefined;
  const values = new URLSearchParams(match[3]);
  const [nif, numserie, fecha, importe] = ['nif', 'numserie', 'fecha', 'importe'].map((name) => values.get(name));
  if (nif == null || numserie == null || fecha == null || importe == null) return undefined;
  return { nif, numserie, fecha, importe, mode: match[2] === 'ValidarQR' ? 'verifactu' : 'no_verifactu', environment };
}
