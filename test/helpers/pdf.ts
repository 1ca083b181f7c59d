/**
 * The text of an uncompressed PDF made by pdfkit with its standard fonts: each text-showing operator
 * (`[<hex> kern <hex> …] TJ` or `<hex> Tj`) gives one run; the hex strings are WinAnsi bytes.
 */
const WIN_ANSI_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decodeWinAnsi(hex: string): string {
  let out = '';
  for (let i = 0; i + 1 < hex.length; i += 2) {
    const byte = Number.parseInt(hex.slice(i, i + 2), 16);
    out += byte >= 0x80 && byte < 0xa0 ? WIN_ANSI_HIGH[byte - 0x80] : String.fromCharCode(byte);
  }
  return out;
}

export function pdfText(bytes: Buffer): string[] {
  const source = bytes.toString('latin1');
  const runs: string[] = [];
  for (const m of source.matchAll(/\[((?:<[0-9a-fA-F]*>|\s|-?[\d.]+)*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
    if (m[1] !== undefined) runs.push([...m[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => decodeWinAnsi(h[1]!)).join(''));
    else runs.push(decodeWinAnsi(m[2]!));
  }
  return runs;
}
