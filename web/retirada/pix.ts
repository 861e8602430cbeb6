/**
 * The Pix of what is owed now, made on the device with no network from the snapshot's BR Code:
 * the same static Pix (key, name, city, txid) with its amount (field 54) set to the amount due
 * after the payments this device recorded, and its CRC16 (field 63) computed again. The fields
 * are EMV "TLV" text: two digits of id, two of length, the value.
 */

interface Campo {
  readonly id: string;
  readonly valor: string;
}

/** The top-level fields of a BR Code, or null when it does not read as one. */
function campos(texto: string): Campo[] | null {
  const lista: Campo[] = [];
  let i = 0;
  while (i < texto.length) {
    const id = texto.slice(i, i + 2);
    const tamanho = Number(texto.slice(i + 2, i + 4));
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(texto.slice(i + 2, i + 4)) || i + 4 + tamanho > texto.length)
      return null;
    lista.push({ id, valor: texto.slice(i + 4, i + 4 + tamanho) });
    i += 4 + tamanho;
  }
  return lista;
}

const campo = (id: string, valor: string) => `${id}${String(valor.length).padStart(2, '0')}${valor}`;

/** CRC16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF), as the BR Code asks, in 4 upper-case hex digits. */
export function crc16(texto: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(texto)) {
    crc ^= byte << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * The BR Code `texto` asking for `centavos` instead of its own amount; null when the text is not
 * a BR Code with a valid CRC (then the app shows none rather than a Pix that may be wrong) or when
 * nothing is owed.
 */
export function pixComValor(texto: string, centavos: number): string | null {
  if (centavos <= 0) return null;
  const lidos = campos(texto);
  if (lidos === null) return null;
  const crc = lidos.at(-1);
  if (crc?.id !== '63' || crc16(texto.slice(0, -4)) !== crc.valor.toUpperCase()) return null;
  const valor = `${Math.trunc(centavos / 100)}.${String(centavos % 100).padStart(2, '0')}`;
  let corpo = '';
  let escrito = false;
  for (const c of lidos.slice(0, -1)) {
    // Field 54 (the amount) comes after 53 (the currency) and before 58 (the country).
    if (!escrito && Number(c.id) > 54) {
      corpo += campo('54', valor);
      escrito = true;
    }
    if (c.id === '54') continue;
    corpo += campo(c.id, c.valor);
  }
  if (!escrito) corpo += campo('54', valor);
  corpo += '6304';
  return corpo + crc16(corpo);
}
