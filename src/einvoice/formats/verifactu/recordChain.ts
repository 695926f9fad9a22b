/**
 * The chain inside one message of VERI*FACTU records: each record names the issuer's record before
 * it (RegistroAnterior: its issuer, number, date and huella), or is the system's first record
 * (PrimerRegistro). The chain is the issuer's (AEAT chains the records of each obligado emisor), so
 * record n is checked against the last record of the same issuer before it in the message; a
 * record whose predecessor is not in the message is reported as linked outside it, not as broken.
 */
interface ChainPrevious {
  issuer_nif: string;
  invoice_number: string;
  issue_date: string;
  huella: string;
}

export interface RecordChain {
  first_record: boolean;
  previous: ChainPrevious | null;
  /** first: PrimerRegistro; linked: names the issuer's record before it in this message, with its huella; broken: names another, or another huella; outside: the issuer's previous record is not in this message. */
  link: 'first' | 'linked' | 'broken' | 'outside';
  /** Why a link is broken, naming the record by its index (from 0) and number; null otherwise. */
  message: string | null;
}

/** What the chain check needs of a record. */
interface ChainedRecord {
  index: number;
  issuer_nif: string;
  invoice_number: string;
  issue_date: string;
  huella: { stated: string };
  chain: RecordChain;
}

const named = (record: ChainedRecord) => `record ${record.index} (${record.invoice_number} of ${record.issue_date})`;

/** Sets each record's `chain.link` and `chain.message` from the records before it in the message. */
export function linkChain(records: readonly ChainedRecord[]): void {
  const lastOfIssuer = new Map<string, ChainedRecord>();
  for (const record of records) {
    const { link, message } = linkOf(record, lastOfIssuer.get(record.issuer_nif));
    lastOfIssuer.set(record.issuer_nif, record);
    record.chain.link = link;
    record.chain.message = message;
  }
}

const broken = (message: string) => ({ link: 'broken' as const, message });

function linkOf(record: ChainedRecord, before: ChainedRecord | undefined): Pick<RecordChain, 'link' | 'message'> {
  const { previous, first_record } = record.chain;
  if (previous === null && before === undefined)
    return first_record
      ? { link: 'first', message: null }
      : broken(`${named(record)} names no previous record (RegistroAnterior) and is not marked PrimerRegistro`);
  if (previous === null)
    return broken(
      `${named(record)} is marked PrimerRegistro, but ${named(before!)} of the same issuer precedes it in this message`,
    );
  if (before === undefined) return { link: 'outside', message: null };
  if (
    previous.issuer_nif !== before.issuer_nif ||
    previous.invoice_number !== before.invoice_number ||
    previous.issue_date !== before.issue_date
  )
    return broken(
      `${named(record)} names ${previous.invoice_number} of ${previous.issue_date} (issuer ${previous.issuer_nif}) as its previous record, but the issuer's record before it is ${named(before)}`,
    );
  if (previous.huella !== before.huella.stated)
    return broken(
      `${named(record)} carries ${previous.huella} as the huella of ${named(before)}, which states ${before.huella.stated}`,
    );
  return { link: 'linked', message: null };
}
