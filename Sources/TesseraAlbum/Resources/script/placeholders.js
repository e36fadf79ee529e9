// Each image's ThumbHash placeholder, painted behind it as it nears the screen until it loads.
// A ThumbHash (base64 bytes) as a small image URL: TesseraImage's ThumbHash.decode, in script.
const thumbHashURL = (text) => {
  const hash = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  if (hash.length < 5) return null;
  const h24 = hash[0] | hash[1] << 8 | hash[2] << 16, h16 = hash[3] | hash[4] << 8;
  const alpha = (h24 >> 23) & 1;
  if (alpha && hash.length < 6) return null;
  const [lDC, pDC, qDC] = [(h24 & 63) / 63, ((h24 >> 6) & 63) / 31.5 - 1, ((h24 >> 12) & 63) / 31.5 - 1];
  const [lScale, pScale, qScale] = [((h24 >> 18) & 31) / 31, ((h16 >> 3) & 63) / 63, ((h16 >> 9) & 63) / 63];
  const landscape = (h16 >> 15) & 1, fixed = alpha ? 5 : 7;
  const lx = Math.max(3, landscape ? fixed : h16 & 7), ly = Math.max(3, landscape ? h16 & 7 : fixed);
  const aDC = alpha ? (hash[5] & 15) / 15 : 1, aScale = alpha ? (hash[5] >> 4) / 15 : 0;
  // The AC terms, 4 bits each, low nibble first, over a triangle of nx × ny.
  let position = (alpha ? 6 : 5) * 2;
  const read = (nx, ny, scale) => {
    const terms = [];
    for (let cy = 0; cy < ny; cy++) {
      for (let cx = cy ? 0 : 1; cx * ny < nx * (ny - cy); cx++, position++) {
        terms.push((((hash[position >> 1] >> ((position & 1) * 4)) & 15) / 7.5 - 1) * scale);
      }
    }
    return terms;
  };
  // Chroma is boosted by 1.25 for the quantisation of its terms.
  const l = read(lx, ly, lScale), p = read(3, 3, pScale * 1.25), q = read(3, 3, qScale * 1.25);
  const a = alpha ? read(5, 5, aScale) : [];
  if (position > hash.length * 2) return null;
  const ratio = lx / ly;
  const w = Math.max(1, Math.round(ratio > 1 ? 32 : 32 * ratio));
  const h = Math.max(1, Math.round(ratio > 1 ? 32 / ratio : 32));
  const sum = (terms, nx, ny, x, y) => {
    let total = 0, index = 0;
    for (let cy = 0; cy < ny; cy++) {
      const fy = 2 * Math.cos(Math.PI / h * (y + 0.5) * cy);
      for (let cx = cy ? 0 : 1; cx * ny < nx * (ny - cy); cx++) {
        total += terms[index++] * Math.cos(Math.PI / w * (x + 0.5) * cx) * fy;
      }
    }
    return total;
  };
  const pixels = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const lum = lDC + sum(l, lx, ly, x, y), yb = pDC + sum(p, 3, 3, x, y), rg = qDC + sum(q, 3, 3, x, y);
      // Inverting L = (R+G+B)/3, P = (R+G)/2 − B, Q = R − G.
      const b = lum - 2 / 3 * yb, r = (3 * lum - b + rg) / 2;
      pixels.set([r, r - rg, b, alpha ? aDC + sum(a, 5, 5, x, y) : 1].map((v) => v * 255), (y * w + x) * 4);
    }
  }
  const canvas = Object.assign(document.createElement('canvas'), {width: w, height: h});
  canvas.getContext('2d').putImageData(new ImageData(pixels, w, h), 0, 0);
  return canvas.toDataURL();
};
// Each image's placeholder is painted behind it as it nears the screen, unless it is there already.
const paint = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    const img = /** @type {HTMLImageElement} */ (entry.target);
    paint.unobserve(img);
    const url = !(img.complete && img.naturalWidth) && thumbHashURL(img.dataset.th);
    if (url) img.style.backgroundImage = `url(${url})`;
  }
}, {rootMargin: '100%'});
document.querySelectorAll('img[data-th]').forEach((img) => paint.observe(img));
