import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { needsShared, SHARED_ABSENT, SHARED_EINVOICE } from './sharedFolder.js';

/**
 * The inbound e-invoice corpus of ../shared/einvoice (beside the checkout): every file of
 * corpus/ (the MANIFESTs give each one's BT-112 and BT-115) and of en16931/*\/examples (whose
 * BT-112/BT-115 are read here from the XML with a plain pattern, independent of the reader).
 */
export { SHARED_EINVOICE };
export const CORPUS_PRESENT = !needsShared(join('corpus', 'MANIFEST.tsv'), join('en16931', 'cii', 'examples'));
export const CORPUS_ABSENT_MESSAGE = SHARED_ABSENT;

export interface CorpusFile {
  path: string;
  name: string;
  format: 'xml' | 'pdf';
  grandTotal: string;
  duePayable: string;
}

function manifest(folder: string): CorpusFile[] {
  const [header, ...rows] = readFileSync(join(folder, 'MANIFEST.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split('\t'));
  const column = (name: string) => header!.indexOf(name);
  return rows.map((row) => {
    const name = row[column('file')]!;
    return {
      path: join(folder, name),
      name,
      format: name.endsWith('.pdf') ? 'pdf' : 'xml',
      grandTotal: row[column('BT112_grand_total')]!,
      duePayable: row[column('BT115_due')]!,
    };
  });
}

function examples(): CorpusFile[] {
  return ['cii', 'ubl'].flatMap((syntax) => {
    const folder = join(SHARED_EINVOICE, 'en16931', syntax, 'examples');
    return readdirSync(folder)
      .sort()
      .map((name) => {
        const xml = readFileSync(join(folder, name), 'utf8');
        const grand = /<(?:ram:GrandTotalAmount|cbc:TaxInclusiveAmount)[^>]*>([^<]+)</.exec(xml)?.[1] ?? '';
        const due = /<(?:ram:DuePayableAmount|cbc:PayableAmount)[^>]*>([^<]+)</.exec(xml)?.[1] ?? '';
        return {
          path: join(folder, name),
          name: `en16931/${syntax}/${name}`,
          format: 'xml' as const,
          grandTotal: grand.trim(),
          duePayable: due.trim(),
        };
      });
  });
}

export function inboundCorpus(): CorpusFile[] {
  if (!CORPUS_PRESENT) return [];
  return [
    ...manifest(join(SHARED_EINVOICE, 'corpus')),
    ...manifest(join(SHARED_EINVOICE, 'corpus', 'mixed')),
    ...examples(),
  ];
}

export const sameAmount = (a: string | null | undefined, b: string) =>
  a !== null && a !== undefined && Number(a) === Number(b);
