/**
 * FechaHoraHusoGenRegistro: the moment a record is generated, as xs:dateTime with its offset
 * (YYYY-MM-DDThh:mm:ss±hh:mm), written in Spanish peninsular time (Europe/Madrid: +01:00 in
 * winter, +02:00 in summer), as AEAT's examples are. AEAT accepts any offset that names the same
 * instant; a Canary issuer may keep its own zone, which the record does not need.
 */
const MADRID = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Madrid',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

export function spanishTimestamp(instant: Date): string {
  const parts = Object.fromEntries(MADRID.formatToParts(instant).map((part) => [part.type, part.value]));
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const wholeSeconds = Math.floor(instant.getTime() / 1000) * 1000;
  const offsetMinutes = Math.round((local - wholeSeconds) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

/** YYYY-MM-DD (the invoice JSON's dates) as the record writes them: DD-MM-YYYY. */
export function recordDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}-${month}-${year}`;
}
