/**
 * Colour distance as a viewer with deuteranopia sees it: Machado, Oliveira & Fernandes, "A Physiologically-based
 * Model for Simulation of Color Vision Deficiency", IEEE TVCG 2009 (severity 1.0 matrix, applied to linear sRGB),
 * then CIEDE2000 (Sharma, Wu & Dalal 2005) between the simulated colours in CIELAB (D65).
 */
type Rgb = [number, number, number];

export function parseColour(css: string): Rgb {
  const hex = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(css.trim());
  if (hex) return [0, 2, 4].map((i) => parseInt(hex[1]!.slice(i, i + 2), 16) / 255) as Rgb;
  const rgb = /^rgba?\(\s*(\d+)[ ,]+(\d+)[ ,]+(\d+)/i.exec(css.trim());
  if (rgb) return [rgb[1], rgb[2], rgb[3]].map((v) => Number(v) / 255) as Rgb;
  throw new Error(`not a colour: ${css}`);
}

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toGamma = (c: number) => {
  const x = Math.min(1, Math.max(0, c));
  return x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055;
};

const DEUTERANOPIA = [
  [0.367322, 0.860646, -0.227968],
  [0.280085, 0.672501, 0.047413],
  [-0.01182, 0.04294, 0.968881],
];

export function simulateDeuteranopia(c: Rgb): Rgb {
  const l = c.map(toLinear);
  return DEUTERANOPIA.map((row) => toGamma(row[0]! * l[0]! + row[1]! * l[1]! + row[2]! * l[2]!)) as Rgb;
}

function lab(c: Rgb): [number, number, number] {
  const [r, g, b] = c.map(toLinear) as Rgb;
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => ((r * 180) / Math.PI + 360) % 360;

export function ciede2000(c1: Rgb, c2: Rgb): number {
  const [L1, a1, b1] = lab(c1);
  const [L2, a2, b2] = lab(c2);
  const Cb = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const G = 0.5 * (1 - Math.sqrt(Cb ** 7 / (Cb ** 7 + 25 ** 7)));
  const [a1p, a2p] = [(1 + G) * a1, (1 + G) * a2];
  const [C1p, C2p] = [Math.hypot(a1p, b1), Math.hypot(a2p, b2)];
  const [h1p, h2p] = [deg(Math.atan2(b1, a1p)), deg(Math.atan2(b2, a2p))];
  const dLp = L2 - L1;
  const dCp = C2p - C1p;
  let dhp = 0;
  if (C1p * C2p !== 0)
    dhp = Math.abs(h2p - h1p) <= 180 ? h2p - h1p : h2p - h1p > 180 ? h2p - h1p - 360 : h2p - h1p + 360;
  const dHp = 2 * Math.sqrt(C1p * C2p) * Math.sin(rad(dhp / 2));
  const Lbp = (L1 + L2) / 2;
  const Cbp = (C1p + C2p) / 2;
  let hbp = h1p + h2p;
  if (C1p * C2p !== 0)
    hbp =
      Math.abs(h1p - h2p) <= 180 ? (h1p + h2p) / 2 : h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2;
  const T =
    1 -
    0.17 * Math.cos(rad(hbp - 30)) +
    0.24 * Math.cos(rad(2 * hbp)) +
    0.32 * Math.cos(rad(3 * hbp + 6)) -
    0.2 * Math.cos(rad(4 * hbp - 63));
  const dTheta = 30 * Math.exp(-(((hbp - 275) / 25) ** 2));
  const RC = 2 * Math.sqrt(Cbp ** 7 / (Cbp ** 7 + 25 ** 7));
  const SL = 1 + (0.015 * (Lbp - 50) ** 2) / Math.sqrt(20 + (Lbp - 50) ** 2);
  const SC = 1 + 0.045 * Cbp;
  const SH = 1 + 0.015 * Cbp * T;
  const RT = -Math.sin(rad(2 * dTheta)) * RC;
  return Math.sqrt((dLp / SL) ** 2 + (dCp / SC) ** 2 + (dHp / SH) ** 2 + RT * (dCp / SC) * (dHp / SH));
}

/** The smallest CIEDE2000 distance between any two of these colours as seen with deuteranopia. */
export function minDeuteranopiaDistance(colours: readonly string[]): { distance: number; pair: [string, string] } {
  let best = { distance: Infinity, pair: ["", ""] as [string, string] };
  for (let i = 0; i < colours.length; i++)
    for (let j = i + 1; j < colours.length; j++) {
      const d = ciede2000(
        simulateDeuteranopia(parseColour(colours[i]!)),
        simulateDeuteranopia(parseColour(colours[j]!)),
      );
      if (d < best.distance) best = { distance: d, pair: [colours[i]!, colours[j]!] };
    }
  return best;
}
