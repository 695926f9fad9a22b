/**
 * AEAT's value lists the `verifactu` object uses (DsRegistroVeriFactu annex lists and the current
 * SuministroInformacion.xsd; ../shared/einvoice/verifactu/spec/value-lists.md).
 */
export const INVOICE_TYPES = ['F1', 'F2', 'F3', 'R1', 'R2', 'R3', 'R4', 'R5'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];
export const isRectifying = (type: InvoiceType): boolean => type.startsWith('R');

/** ClaveRegimen as the XSD enumerates it (L8A for IVA, L8B for IGIC, the IPSI subset). */
export const REGIME_KEYS = [
  '01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '14', '15', '17', '18', '19', '20', '21',
] as const; // prettier-ignore
export type RegimeKey = (typeof REGIME_KEYS)[number];

/** L9 CalificacionOperacion and L10 OperacionExenta (E7, E8 IGIC only). */
export const QUALIFICATIONS = ['S1', 'S2', 'N1', 'N2'] as const;
export const EXEMPTIONS = ['E1', 'E2', 'E3', 'E4', 'E5', 'E6', 'E7', 'E8'] as const;
export type Qualification = (typeof QUALIFICATIONS)[number] | (typeof EXEMPTIONS)[number];
export const isExemption = (code: Qualification): code is (typeof EXEMPTIONS)[number] => code.startsWith('E');

/** L1 Impuesto by the name the request uses. */
export const TAXES = { IVA: '01', IPSI: '02', IGIC: '03' } as const;
export type TaxName = keyof typeof TAXES;

/** The regime keys AEAT admits per tax (validations 15.6: IVA L8A, IGIC L8B + 20, 21, IPSI its six). */
export const REGIMES_OF: Record<TaxName, readonly RegimeKey[]> = {
  IVA: ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '14', '15', '17', '18', '19', '20'],
  IGIC: ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '14', '15', '17', '18', '19', '20', '21'],
  IPSI: ['01', '08', '11', '18', '19', '20'],
};

/** L7 IDType of IDOtro. */
export const ID_TYPES = ['02', '03', '04', '05', '06', '07'] as const;
export type IdType = (typeof ID_TYPES)[number];
