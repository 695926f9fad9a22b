/**
 * SistemaInformatico: the billing software that generates the records. This service is it, and
 * its operator is the software's producer (AEAT's "productor"), so the block comes from the
 * server's configuration (VERIFACTU_* variables, src/config.ts), never from the request.
 */
export interface SistemaInformatico {
  /** NombreRazon of the producer. */
  producerName: string;
  /** NIF of the producer (a Spanish producer). */
  producerNif?: string | undefined;
  /** Or IDOtro of a producer without a Spanish NIF: its EU VAT number (IDType 02). */
  producerVatId?: string | undefined;
  /** NombreSistemaInformatico, at most 30 characters. */
  systemName: string;
  /** IdSistemaInformatico: 2 characters, capitals (not Ñ) or digits. */
  systemId: string;
  version: string;
  /** NumeroInstalacion: distinct per installation. */
  installation: string;
  /** TipoUsoPosibleSoloVerifactu: whether the system can only work as VERI*FACTU. */
  onlyVerifactu: boolean;
}

/**
 * The block used when the server names none: a placeholder producer (NIF 00000000T has a valid
 * check character and belongs to nobody), fine for tests; an operator configures its own.
 */
export const DEFAULT_SYSTEM: SistemaInformatico = {
  producerName: 'INVOICE PDF X402',
  producerNif: '00000000T',
  systemName: 'invoice-pdf-x402',
  systemId: 'IX',
  version: '1.0',
  installation: '1',
  onlyVerifactu: false,
};
