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

/** The server settings (config.ts) the record's SistemaInformatico takes: the module writer declares them. */
export const SYSTEM_SETTINGS = ['VERIFACTU_PRODUCER_NAME', 'VERIFACTU_PRODUCER_NIF', 'VERIFACTU_INSTALLATION'] as const;

/** This service as the server configures it; a setting absent keeps DEFAULT_SYSTEM's value. */
export function systemOf(settings: Readonly<Record<string, string | undefined>>): SistemaInformatico {
  return {
    ...DEFAULT_SYSTEM,
    producerName: settings.VERIFACTU_PRODUCER_NAME ?? DEFAULT_SYSTEM.producerName,
    producerNif: settings.VERIFACTU_PRODUCER_NIF ?? DEFAULT_SYSTEM.producerNif,
    installation: settings.VERIFACTU_INSTALLATION ?? DEFAULT_SYSTEM.installation,
  };
}
