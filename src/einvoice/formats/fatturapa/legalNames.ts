/**
 * The Italian legal names of FatturaPA's codes (the schema's own annotations, Schema_VFPA12_V1.2.3.xsd),
 * printed beside each code on the courtesy copy in every language: they are the terms of the law
 * the reader of an Italian invoice looks for, so they are not translated.
 */
export const NATURA_NAMES: Record<string, string> = {
  N1: 'Escluse ex art. 15',
  N2: 'Non soggette',
  'N2.1': 'Non soggette ad IVA ai sensi degli artt. da 7 a 7-septies del DPR 633/72',
  'N2.2': 'Non soggette - altri casi',
  N3: 'Non imponibili',
  'N3.1': 'Non imponibili - esportazioni',
  'N3.2': 'Non imponibili - cessioni intracomunitarie',
  'N3.3': 'Non imponibili - cessioni verso San Marino',
  'N3.4': "Non imponibili - operazioni assimilate alle cessioni all'esportazione",
  'N3.5': "Non imponibili - a seguito di dichiarazioni d'intento",
  'N3.6': 'Non imponibili - altre operazioni che non concorrono alla formazione del plafond',
  N4: 'Esenti',
  N5: 'Regime del margine / IVA non esposta in fattura',
  N6: 'Inversione contabile',
  'N6.1': 'Inversione contabile - cessione di rottami e altri materiali di recupero',
  'N6.2': 'Inversione contabile - cessione di oro e argento',
  'N6.3': 'Inversione contabile - subappalto nel settore edile',
  'N6.4': 'Inversione contabile - cessione di fabbricati',
  'N6.5': 'Inversione contabile - cessione di telefoni cellulari',
  'N6.6': 'Inversione contabile - cessione di prodotti elettronici',
  'N6.7': 'Inversione contabile - prestazioni comparto edile e settori connessi',
  'N6.8': 'Inversione contabile - operazioni settore energetico',
  'N6.9': 'Inversione contabile - altri casi',
  N7: 'IVA assolta in altro stato UE',
};

export const REGIME_NAMES: Record<string, string> = {
  RF01: 'Ordinario',
  RF02: 'Contribuenti minimi',
  RF04: 'Agricoltura e attività connesse e pesca',
  RF05: 'Vendita sali e tabacchi',
  RF06: 'Commercio fiammiferi',
  RF07: 'Editoria',
  RF08: 'Gestione servizi telefonia pubblica',
  RF09: 'Rivendita documenti di trasporto pubblico e di sosta',
  RF10: 'Intrattenimenti, giochi e altre attività',
  RF11: 'Agenzie viaggi e turismo',
  RF12: 'Agriturismo',
  RF13: 'Vendite a domicilio',
  RF14: 'Rivendita beni usati, oggetti d’arte, d’antiquariato o da collezione',
  RF15: 'Agenzie di vendite all’asta di oggetti d’arte, antiquariato o da collezione',
  RF16: 'IVA per cassa P.A.',
  RF17: 'IVA per cassa',
  RF18: 'Altro',
  RF19: 'Regime forfettario',
  RF20: 'Regime transfrontaliero di franchigia IVA',
};

export const ESIGIBILITA_NAMES: Record<string, string> = {
  I: 'IVA ad esigibilità immediata',
  D: 'IVA ad esigibilità differita',
  S: 'Scissione dei pagamenti',
};

export const DOCUMENT_TYPE_NAMES: Record<string, string> = {
  TD01: 'Fattura',
  TD02: 'Acconto/anticipo su fattura',
  TD03: 'Acconto/anticipo su parcella',
  TD04: 'Nota di credito',
  TD05: 'Nota di debito',
  TD06: 'Parcella',
  TD24: 'Fattura differita',
  TD25: 'Fattura differita (art. 21, c. 4, terzo periodo, lett. b)',
};

export const PAYMENT_METHOD_NAMES: Record<string, string> = {
  MP01: 'Contanti',
  MP02: 'Assegno',
  MP03: 'Assegno circolare',
  MP05: 'Bonifico',
  MP08: 'Carta di pagamento',
  MP09: 'RID',
  MP12: 'RIBA',
  MP19: 'SEPA Direct Debit',
  MP23: 'PagoPA',
};

export const PAYMENT_TERMS_NAMES: Record<string, string> = {
  TP01: 'Pagamento a rate',
  TP02: 'Pagamento completo',
  TP03: 'Anticipo',
};

/** "CODE – legal name" when the code is known, else the code as written. */
export const named = (code: string | undefined, names: Record<string, string>): string | undefined =>
  code === undefined ? undefined : names[code] ? `${code} – ${names[code]}` : code;
