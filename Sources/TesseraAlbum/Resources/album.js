// Set as the page starts: its photos show once laid out for the window (album.css).
document.documentElement.classList.add('js');
document.addEventListener('DOMContentLoaded', () => {
  'use strict';
  // A page carries its photos laid out at one width (what shows without script); layout.js
  // lays them out again at the window's width whenever it changes, and they are drawn as CollectionPages.render draws them: a frame that would crop a whole-photo
  // style shows the photo whole inside it, no photo larger than its own pixels, and strips as
  // natively scrolling rows of unzoomed cells.
  const px = (value) => `${Math.round(value * 100) / 100}px`;
  const sizeOf = (a, key) => (a.dataset[key] || a.dataset.wh).split(' ').map(Number);
  const contained = ([width, height], frame) => {
    const aspect = width / height, inner = {...frame};
    if (!(frame.width > 0 && frame.height > 0)) return inner;
    if (aspect > frame.width / frame.height) {
      inner.height = Math.round(frame.width / aspect);
      inner.y += Math.round((frame.height - inner.height) / 2);
    } else {
      inner.width = Math.round(frame.height * aspect);
      inner.x += Math.round((frame.width - inner.width) / 2);
    }
    return inner;
  };
  const unenlarged = ([width, height], frame) => {
    const scale = Math.max(frame.width / width, frame.height / height);
    if (!(scale > 1)) return frame;
    const inner = {...frame};
    inner.width = Math.min(width, Math.round(frame.width / scale));
    inner.height = Math.min(height, Math.round(frame.height / scale));
    inner.x += Math.round((frame.width - inner.width) / 2);
    inner.y += Math.round((frame.height - inner.height) / 2);
    return inner;
  };
  const place = (a, frame, layoutFrame) => {
    const box = (f) => [f.x, f.y, f.width, f.height];
    Object.assign(a.style, {left: px(frame.x), top: px(frame.y), width: px(frame.width), height: px(frame.height)});
    // The layout's own frame, where the photo is drawn smaller inside it.
    if (box(frame).some((v, i) => v !== box(layoutFrame)[i])) a.dataset.frame = box(layoutFrame).map((v) => parseFloat(px(v))).join(' ');
    else delete a.dataset.frame;
    const img = a.querySelector('img');
    Object.assign(img, {width: Math.round(frame.width), height: Math.round(frame.height)});
    if (img.srcset) img.sizes = px(frame.width);
  };
  // (whatever happens, the page is shown: at worst as it came, at the narrowest width)
  const relayout = (layout) => {
    try {
      layOut(layout);
    } finally {
      layout.classList.add('laid');
    }
  };
  // The width pages are laid out at: the window's, less a scroll bar.
  const pageWidth = () => Math.max(1, document.documentElement.clientWidth);
  const layOut = (layout) => {
    const width = pageWidth();
    if (!layout.classList.contains(`w${width}`)) {
      // The page's pieces: each section's photos on it, under its header when it has one (a
      // "+N" tile stands for the photos it hides).
      const pieces = [];
      let current = null;
      for (const child of layout.children) {
        if (child.classList.contains('header')) {
          pieces.push(current = {header: child, photos: [], limits: [], anchors: [], strip: null});
          continue;
        }
        if (!current) pieces.push(current = {header: null, photos: [], limits: [], anchors: [], strip: null});
        if (child.classList.contains('strip')) current.strip = child;
        for (const a of current.strip === child ? child.querySelectorAll('a.photo') : [child]) {
          const [w, h] = sizeOf(a, 'wh');
          current.anchors.push(a);
          current.photos.push(w / h);
          // The engine's heightLimit, from the pixels served (a RAW may have only a small
          // preview): a size of 1 × 1 is an unknown one.
          current.limits.push(h > 1 ? sizeOf(a, 'px')[1] : Infinity);
          const more = a.querySelector('span.more');
          current.hidden = (current.hidden || 0) + (parseInt(more ? more.textContent.slice(1) : '0', 10) || 0);
        }
      }
      // The photos a "+N" tile stands for come after the section's shown ones, as in the engine.
      for (const piece of pieces) {
        for (let k = piece.hidden || 0; k > 0; k--) {
          piece.photos.push(1);
          piece.limits.push(Infinity);
        }
      }
      const style = layout.dataset.style;
      const laid = window.tesseraLayout.page(pieces.map((p) => ({header: !!p.header, photos: p.photos, limits: p.limits})), style, width);
      const c = laid.settings, whole = ['justified', 'masonry', 'strip'].includes(style), rows = new Map();
      for (const item of laid.items) {
        const piece = pieces[item.piece];
        if (item.header) {
          Object.assign(piece.header.style, {left: px(item.x), top: px(item.y), width: px(item.width), height: px(item.height)});
          continue;
        }
        const a = piece.anchors[item.photo];
        if (!a) continue;
        const photo = sizeOf(a, 'px');
        let frame = {x: item.x, y: item.y, width: item.width, height: item.height};
        if (item.contentX !== undefined && item.scale > 0) {
          if (!rows.has(item.piece)) rows.set(item.piece, {top: item.y - (c.stripHeight - item.height) / 2, next: c.insets.left});
          const row = rows.get(item.piece), [w, h] = [item.width / item.scale, item.height / item.scale];
          frame = {x: row.next, y: (c.stripHeight - h) / 2, width: w, height: h};
          row.next = frame.x + w + c.stripSpacing;
        }
        if (whole && item.crop) frame = contained(photo, frame);
        place(a, unenlarged(photo, frame), frame);
      }
      for (const [number, row] of rows) {
        const strip = pieces[number].strip;
        Object.assign(strip.style, {top: px(row.top), height: px(c.stripHeight), scrollPaddingInline: px(c.insets.left)});
        Object.assign(strip.firstElementChild.style, {width: px(row.next - c.stripSpacing + c.insets.left), height: px(c.stripHeight)});
      }
      layout.className = `layout w${width}`;
      Object.assign(layout.style, {width: px(width), height: px(laid.height)});
    }
  };
  // Titles, cards and Find take the photos' content width, so that they start where the photos do.
  // (the timeline's stream leaves its scrubber's width at the right: its text starts and ends
  // with the stream, not centred in the window)
  const scrubWidth = 44, streaming = !!document.body.dataset.stream;
  const fitText = () => {
    const c = window.tesseraLayout.settings('justified', pageWidth() - (streaming ? scrubWidth : 0));
    document.documentElement.style.setProperty('--content', px(c.width - c.insets.left - c.insets.right));
    document.documentElement.style.setProperty('--side', px(c.insets.left));
  };
  const layouts = document.querySelectorAll('.layout[data-style]');
  fitText();
  layouts.forEach(relayout);
  // `work` once in the next frame after any number of `type` events (a resize or a scroll
  // sends many).
  const eachFrame = (type, work) => {
    let pending = false;
    window.addEventListener(type, () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        work();
      });
    }, {passive: true});
  };
  // Laid out again once a frame after the window's width changes.
  eachFrame('resize', () => {
    fitText();
    layouts.forEach(relayout);
    window.dispatchEvent(new Event('tessera-relayout'));
  });
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
    const w = Math.max(1, Math.round(ratio > 1 ? 32 : 32 * ratio)), h = Math.max(1, Math.round(ratio > 1 ? 32 / ratio : 32));
    const sum = (terms, nx, ny, x, y) => {
      let total = 0, index = 0;
      for (let cy = 0; cy < ny; cy++) {
        const fy = 2 * Math.cos(Math.PI / h * (y + 0.5) * cy);
        for (let cx = cy ? 0 : 1; cx * ny < nx * (ny - cy); cx++) total += terms[index++] * Math.cos(Math.PI / w * (x + 0.5) * cx) * fy;
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
      const img = entry.target;
      paint.unobserve(img);
      const url = !(img.complete && img.naturalWidth) && thumbHashURL(img.dataset.th);
      if (url) img.style.backgroundImage = `url(${url})`;
    }
  }, {rootMargin: '100%'});
  document.querySelectorAll('img[data-th]').forEach((img) => paint.observe(img));
  let photos = null, loading = null, current = -1, savedScroll = 0, opener = null;
  // On the timeline the lightbox shows a month at a time, and goes on into the months beside
  // it; the address names the month too (#2023-07/photo-12), so that it reopens without
  // reading every month. `monthViewer` is set once the timeline's stream is made.
  let monthViewer = null, month = null;
  const fragment = (id) => (monthViewer ? `#${month}/photo-${id}` : `#photo-${id}`);
  const address = () => location.hash.match(/^#(?:(\d{4}-\d{2}|undated)\/)?photo-(\d+)$/) || [];
  const photoInAddress = () => address()[2];
  // The photos: an album's or month's photos.js (docs/ALBUM.md, "The lightbox's data"): its
  // paths lead from the file's own folder, which `base` leads from to the site's.
  const script = (src) => new Promise((resolve, reject) => {
    document.head.appendChild(Object.assign(document.createElement('script'), {src, onload: resolve, onerror: reject}));
  });
  // One file at a time: each sets window.tesseraPhotos as it runs.
  let reading = Promise.resolve();
  // (`wanted`: asked again when its turn comes; a month the stream has scrolled past is not read)
  const read = (file, wanted = () => true) => {
    const next = () => (wanted() ? readNow(file) : null);
    return (reading = reading.then(next, next));
  };
  const readNow = async (file) => {
    await script(file);
    const data = window.tesseraPhotos || {photos: []};
    const root = new URL(data.base, new URL(file, location.href));
    const at = (path) => new URL(path, root).href;
    const word = (value) => (typeof value === 'number' ? data.words[value] : value);
    const photo = (entry) => {
      // A rendition is its folder under media/, then `media` where the photo's share one name.
      const media = (path) => at(`media/${entry.media ? `${path}/${entry.media}` : path}`);
      const sources = entry.sources.map(([path, width]) => ({url: media(path), width}));
      const album = data.albums[entry.album];
      const original = entry.original && at(`originals/${album.slice(album.indexOf('/') + 1)}/${entry.original}`);
      return {
        id: entry.id, name: entry.name, title: entry.title, caption: entry.caption,
        width: entry.width, height: entry.height, sources, original,
        view: at(`${album}/index.html#photo-${entry.id}`),
        thumb: entry.thumb && media(entry.thumb),
        zoom: entry.zoom === 'original' ? original : entry.zoom === 'largest' && sources.length ? sources[sources.length - 1].url : null,
        facts: [...entry.facts.map(([label, value, guess, link]) => ({label: word(label), value: word(value), guess: guess === 1, link})),
                {label: 'File', value: entry.name}],
        video: entry.video && {url: at(`media/${entry.video[0]}`), live: entry.video[1] === 1, playable: entry.video[2] === 1},
        find: Object.assign({keywords: []}, entry.find, {format: word(entry.find.format), camera: word(entry.find.camera)}),
        // A stack's face: its other members, which the viewer shows after it.
        stack: entry.stack && {title: entry.stack.title, photos: entry.stack.photos.map(photo)},
      };
    };
    return data.photos.map(photo);
  };
  // A list with the members of the stack at `index` after it (once): the viewer's list as it
  // expands a stack; the same list when there is none to add.
  const expanded = (list, index) => {
    const stack = list[index] && list[index].stack;
    if (!stack || !stack.photos.length || list.includes(stack.photos[0])) return list;
    stack.photos.forEach((member) => { member.memberOf = list[index].id; });
    return [...list.slice(0, index + 1), ...stack.photos, ...list.slice(index + 1)];
  };
  const load = () => loading || (loading = (async () => {
    const list = [];
    for (const file of (document.body.dataset.photos || '').split(' ').filter(Boolean)) list.push(...await read(file));
    return (photos = list);
  })());
  // Motion.badge: LIVE or ▶, marked ⤓ when the browser cannot play it (a click offers the file).
  const badge = (video) => element('span', {className: 'badge',
    textContent: `${video.playable ? '' : '⤓ '}${video.live ? 'LIVE' : '▶'}`,
    title: video.playable ? '' : 'Browsers do not play this format: download it to watch'});
  // StackWording.badge: how many files the tile stands for.
  const stackBadge = (stack) => element('span', {className: 'badge stack', textContent: `${stack.photos.length + 1}`,
    title: stack.title});
  const element = (tag, props = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), props);
    node.append(...children);
    return node;
  };
  const image = element('img', {alt: '', decoding: 'async'});
  const figure = element('figure', {}, image);
  let motion = null;
  figure.addEventListener('pointerenter', () => motion && motion.start());
  figure.addEventListener('pointerdown', () => motion && motion.start());
  for (const type of ['pointerleave', 'pointerup', 'pointercancel']) figure.addEventListener(type, () => motion && motion.stop());
  const prev = element('button', {className: 'prev', type: 'button', textContent: '‹', title: 'Previous (←)'});
  const next = element('button', {className: 'next', type: 'button', textContent: '›', title: 'Next (→)'});
  const close = element('button', {className: 'close', type: 'button', textContent: '×', title: 'Close (Esc)'});
  const counter = element('div', {className: 'counter'});
  // The details beside (or below) the photo, shown or not as the person last chose.
  const info = element('button', {className: 'info', type: 'button', textContent: 'i', title: 'Details (i)'});
  const detailsKey = 'tessera-details';
  const remembered = () => { try { return localStorage.getItem(detailsKey); } catch { return null; } };
  const details = (shown) => {
    viewer.classList.toggle('plain', !shown);
    info.setAttribute('aria-pressed', String(shown));
    try { localStorage.setItem(detailsKey, shown ? 'shown' : 'hidden'); } catch {}
  };
  const facts = element('aside', {className: 'facts'});
  // Thumbnails of the whole album under the photo: the current one centred and at its own aspect.
  const strip = element('div', {className: 'filmstrip'});
  const viewer = element('div', {className: 'lightbox', hidden: true}, figure, strip, facts, prev, next, info, close, counter);
  viewer.classList.toggle('plain', remembered() === 'hidden');
  info.setAttribute('aria-pressed', String(remembered() !== 'hidden'));
  const still = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  let thumbs = [];
  let stripOf = null;
  const buildStrip = () => {
    if (stripOf === photos) return;
    stripOf = photos;
    thumbs = photos.map((photo, index) => {
      const thumb = element('button', {type: 'button', title: photo.name,
                                       className: photo.memberOf ? 'member' : photo.stack ? 'stacked' : ''});
      thumb.style.setProperty('--aspect', Math.min(2, Math.max(0.5, photo.width / photo.height)).toFixed(3));
      // A square rendition (256 px), not a fit: a strip of them stays light.
      const src = photo.thumb || (photo.sources.length ? photo.sources[0].url : '');
      if (src) thumb.append(element('img', {src, alt: '', loading: 'lazy', decoding: 'async'}));
      thumb.addEventListener('click', () => show(index));
      return thumb;
    });
    // Half-width spacers let the first and last thumbnails reach the middle.
    strip.replaceChildren(element('span', {className: 'spacer'}), ...thumbs, element('span', {className: 'spacer'}));
  };
  // How far the thumbnail's centre is from the strip's, in the strip's scrolling.
  const offCentre = (thumb) => {
    const box = thumb.getBoundingClientRect(), area = strip.getBoundingClientRect();
    return box.left + box.width / 2 - (area.left + area.width / 2);
  };
  // Whether the strip is moving because a photo was shown (not because a hand moved it).
  let steering = false;
  const centreStrip = () => {
    const thumb = thumbs[current];
    if (!thumb) return;
    thumbs.forEach((other) => other.classList.toggle('current', other === thumb));
    const target = Math.max(0, Math.min(strip.scrollWidth - strip.clientWidth, strip.scrollLeft + offCentre(thumb)));
    steering = Math.abs(target - strip.scrollLeft) >= 1;
    strip.scrollTo({left: target, behavior: still() ? 'auto' : 'smooth'});
  };
  // Scrolled by hand, the strip settles on the thumbnail nearest its centre, and shows it.
  strip.addEventListener('scrollend', () => {
    if (steering) { steering = false; return; }
    let nearest = current, distance = Infinity;
    thumbs.forEach((thumb, index) => {
      const d = Math.abs(offCentre(thumb));
      if (d < distance) { nearest = index; distance = d; }
    });
    if (nearest !== current && distance < 40) show(nearest);
  });
  // 1:1 from the original (double-click or +): one image pixel per device pixel, scrolled to
  // where the click was; back with another double-click, - or Esc.
  const zoomed = element('img', {className: 'zoom', alt: '', decoding: 'async'});
  const zoom = (on, event) => {
    const photo = photos[current];
    if (on === figure.classList.contains('zoomed') || !photo || !photo.zoom || (on && image.hidden)) return;
    figure.classList.toggle('zoomed', on);
    if (on) {
      const box = image.getBoundingClientRect();
      const fx = event ? (event.clientX - box.left) / box.width : 0.5, fy = event ? (event.clientY - box.top) / box.height : 0.5;
      const [w, h] = [photo.width / window.devicePixelRatio, photo.height / window.devicePixelRatio];
      Object.assign(zoomed, {src: photo.zoom, alt: photo.name});
      Object.assign(zoomed.style, {width: `${w}px`, height: `${h}px`});
      image.hidden = true;
      figure.append(zoomed);
      figure.scrollTo(fx * w - figure.clientWidth / 2, fy * h - figure.clientHeight / 2);
    } else {
      zoomed.remove();
      zoomed.removeAttribute('src');
      image.hidden = false;
    }
  };
  figure.addEventListener('dblclick', (event) => zoom(!figure.classList.contains('zoomed'), event));
  // Space: a slideshow, one photo every 4 s, until a key, a click or the album's end.
  let slideshow = null;
  const stopSlideshow = () => { clearInterval(slideshow); slideshow = null; viewer.classList.remove('slideshow'); };
  const startSlideshow = () => {
    viewer.classList.add('slideshow');
    slideshow = setInterval(() => { if (current + 1 < photos.length || beyond(1)) show(current + 1); else stopSlideshow(); }, 4000);
  };
  viewer.setAttribute('role', 'dialog');
  viewer.setAttribute('aria-modal', 'true');
  document.body.append(viewer);

  // Whether there are photos past the list's end (-1: before its start): on the timeline, the
  // next month's or the previous one's.
  const beyond = (direction) => !!(monthViewer && monthViewer.beside(month, direction));
  const show = (index) => {
    if (monthViewer && (index < 0 || index >= photos.length) && beyond(index < 0 ? -1 : 1)) {
      monthViewer.across(month, index < 0 ? -1 : 1).then((list) => {
        if (!list || !list.length || viewer.hidden) return;
        photos = list;
        buildStrip();
        show(index < 0 ? list.length - 1 : 0);
      });
      return;
    }
    if (index < 0 || index >= photos.length) return;
    // A stack opens out: its members follow its face in the list and the filmstrip.
    const grown = expanded(photos, index);
    if (grown !== photos) {
      photos = grown;
      buildStrip();
    }
    current = index;
    zoom(false);
    const photo = photos[index];
    image.removeAttribute('srcset');
    image.removeAttribute('src');
    image.width = photo.width;
    image.height = photo.height;
    // As the CSS lays it out (beside the details from 768 px), never past its own pixels.
    const aspect = photo.width / photo.height;
    image.sizes = `(min-width: 768px) min(100vw - 320px, ${(85 * aspect).toFixed(2)}vh, ${photo.width}px), `
      + `min(100vw, ${(85 * aspect).toFixed(2)}vh, ${photo.width}px)`;
    image.srcset = photo.sources.map((source) => `${source.url} ${source.width}w`).join(', ');
    if (photo.sources.length) image.src = photo.sources[photo.sources.length - 1].url;
    image.alt = photo.name;
    // A video plays with controls in place of its poster; a Live Photo's motion over the still.
    figure.querySelectorAll('video').forEach((old) => { old.pause(); old.remove(); });
    figure.classList.remove('live', 'playing');
    image.hidden = false;
    motion = null;
    const clip = photo.video && photo.video.playable ? photo.video : null;
    if (clip && !clip.live) {
      const poster = photo.sources.length ? photo.sources[photo.sources.length - 1].url : '';
      figure.append(element('video', {controls: true, playsInline: true, preload: 'metadata', poster, src: clip.url,
                                      width: photo.width, height: photo.height}));
      image.hidden = true;
    } else if (clip) {
      const video = element('video', {muted: true, loop: true, playsInline: true, preload: 'none', src: clip.url});
      figure.classList.add('live');
      figure.append(video);
      motion = {
        start: () => { figure.classList.add('playing'); video.play().catch(() => {}); },
        stop: () => { figure.classList.remove('playing'); video.pause(); video.currentTime = 0; },
      };
    }
    const list = element('dl');
    for (const fact of photo.facts) {
      const value = fact.link ? element('a', {href: fact.link, textContent: fact.value, rel: 'noopener'})
                              : document.createTextNode(fact.value);
      list.append(element('dt', {textContent: fact.label}), element('dd', {className: fact.guess ? 'guess' : ''}, value));
    }
    const links = [];
    // From a month or the timeline, the photo in its folder album.
    if (new URL(photo.view, location.href).pathname !== location.pathname) {
      links.push(element('a', {href: photo.view, textContent: 'In its album'}));
    }
    if (photo.original) links.push(element('a', {href: photo.original, textContent: 'Download original', download: photo.name}));
    if (photo.video && !photo.video.playable) {
      links.push(element('a', {href: photo.video.url, textContent: photo.video.live ? 'Motion' : 'Video', download: ''}));
    }
    const line = element('p');
    links.forEach((link, i) => line.append(...(i ? [' · ', link] : [link])));
    // Its title (else its file name), caption, stars and keywords, then the facts.
    const heading = [element('h2', {textContent: photo.title || photo.name})];
    if (photo.caption) heading.push(element('p', {className: 'caption', textContent: photo.caption}));
    const rating = photo.find.rating;
    if (rating > 0) {
      heading.push(element('p', {className: 'stars', textContent: '★'.repeat(rating) + '☆'.repeat(5 - rating),
                                 title: `Rated ${rating} of 5`}));
    } else if (rating < 0) {
      heading.push(element('p', {className: 'stars', textContent: 'Rejected'}));
    }
    const words = photo.find.keywords.filter((word) => typeof word === 'string' && word);
    if (words.length) {
      heading.push(element('ul', {className: 'keywords'}, ...words.map((word) => element('li', {textContent: word}))));
    }
    facts.replaceChildren(...heading, list, line);
    // (on the timeline, of its month: "4 / 10 · July 2024")
    counter.textContent = `${index + 1} / ${photos.length}${monthViewer ? ` · ${monthViewer.title(month)}` : ''}`;
    prev.disabled = index === 0 && !beyond(-1);
    next.disabled = index === photos.length - 1 && !beyond(1);
    viewer.dataset.id = photo.id;
    // The address is the photo's, to copy or bookmark.
    if (location.hash !== fragment(photo.id)) history.replaceState(history.state, '', fragment(photo.id));
    centreStrip();
    for (const neighbour of [photos[index + 1], photos[index - 1]]) {
      if (neighbour && neighbour.sources.length) {
        const preload = new Image();
        preload.sizes = image.sizes;
        preload.srcset = neighbour.sources.map((source) => `${source.url} ${source.width}w`).join(', ');
      }
    }
  };
  // Opening grows the photo from its tile, and closing shrinks it back (unless motion is reduced).
  const fromTile = (tile, reverse) => {
    const photo = photos[current];
    if (!tile || !photo || still() || !figure.animate) return Promise.resolve();
    const from = tile.getBoundingClientRect(), area = figure.getBoundingClientRect();
    const scale = Math.min(area.width / photo.width, area.height * 0.85 / photo.height, 1);
    const [w, h] = [photo.width * scale, photo.height * scale];
    const [x, y] = [area.left + (area.width - w) / 2, area.top + (area.height - h) / 2];
    const start = `translate(${from.left - x}px, ${from.top - y}px) scale(${from.width / w}, ${from.height / h})`;
    const frames = [{transform: start, opacity: 0.6}, {transform: 'none', opacity: 1}];
    image.style.transformOrigin = `${x - area.left - (area.width - image.offsetWidth) / 2}px 0`;
    return image.animate(reverse ? frames.reverse() : frames, {duration: 220, easing: 'ease-out'}).finished.catch(() => {});
  };
  const tileOf = (id) => [...document.querySelectorAll('a.photo')].find((a) => a.dataset.id === id && a.offsetParent);
  // Opens the lightbox on a photo, from its tile when there is one; false when the photo is not here.
  const open = (id, tile, push) => (monthViewer ? monthViewer.photosOf(id, tile) : load()).then((all) => {
    // A stack's member is found in its face's stack, which opens out.
    const face = all.findIndex((photo) => photo.stack && photo.stack.photos.some((member) => member.id === id));
    const list = face >= 0 ? expanded(all, face) : all;
    const index = list.findIndex((photo) => photo.id === id);
    if (index < 0) return false;
    opener = tile;
    savedScroll = window.scrollY;
    document.documentElement.classList.add('viewing');
    photos = list;
    buildStrip();
    // An entry of its own in the history: Back (or a phone's back gesture) closes the photo.
    if (push) history.pushState({lightbox: true}, '', fragment(id));
    viewer.hidden = false;
    show(index);
    if (tile) fromTile(tile, false);
    close.focus({preventScroll: true});
    return true;
  });
  // Closing by the button or Esc goes back too, so the entry does not linger.
  const leave = () => { if (history.state && history.state.lightbox) history.back(); else dismiss(); };
  // Back and Forward: the address says which photo is open, if any.
  window.addEventListener('popstate', () => {
    const id = photoInAddress();
    if (!id) dismiss();
    else if (viewer.hidden) open(id, tileOf(id), false);
    else {
      (monthViewer ? Promise.resolve(photos || []) : load()).then((list) => {
        const index = list.findIndex((photo) => photo.id === id);
        if (index >= 0) show(index); else open(id, tileOf(id), false);
      });
    }
  });
  let closing = false;
  const dismiss = () => {
    if (viewer.hidden || closing) return;
    stopSlideshow();
    figure.querySelectorAll('video').forEach((video) => video.pause());
    closing = true;
    const photo = photos[current];
    // Back to the tile of the photo shown, where the page was.
    window.scrollTo(0, savedScroll);
    fromTile(photo && tileOf(photo.id), true).then(() => {
      closing = false;
      viewer.hidden = true;
      document.documentElement.classList.remove('viewing');
      window.scrollTo(0, savedScroll);
      if (opener) opener.focus({preventScroll: true});
      // Opened from its address, the page's entry keeps no photo once it is closed.
      if (photoInAddress()) history.replaceState(history.state, '', location.pathname + location.search);
    });
  };
  // Find: on an album or month page, its photos that match, across all its pages, from its
  // photos.js; on the timeline, find.js says how many photos of each month match each filter,
  // and only the months that can hold matches are loaded, newest first, as results are shown.
  const form = document.querySelector('form.find');
  if (form) {
    form.hidden = false;
    const opener = document.querySelector('button.find-open');
    if (opener) {
      opener.hidden = false;
      opener.addEventListener('click', () => {
        const open = form.classList.toggle('open');
        opener.setAttribute('aria-expanded', String(open));
        if (open) form.elements.text.focus();
      });
    }
    const found = element('section', {className: 'found', hidden: true});
    document.querySelector('main').before(found);
    const plural = (n, noun) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
    const timeline = document.body.dataset.find;
    let index = null;
    const indexed = () => index || (index = script(timeline).then(() => window.tesseraFind));
    // What there is to choose from: from the index on the timeline, else the photos.
    const values = () => timeline
      ? indexed().then((i) => ({
        cameras: i.months.flatMap((m) => Object.keys(m.find.cameras)),
        formats: i.months.flatMap((m) => Object.keys(m.find.formats)),
        keywords: i.months.flatMap((m) => Object.keys(m.find.keywords)),
        dated: i.months.length > 0, rated: i.months.some((m) => m.find.ratings[0] > 0)}))
      : load().then((list) => ({
        cameras: list.map((p) => p.find.camera), formats: list.map((p) => p.find.format),
        keywords: list.flatMap((p) => p.find.keywords), dated: list.some((p) => p.find.day),
        rated: list.some((p) => p.find.rating > 0)}));
    const facets = form.querySelector('.facets'), filters = form.querySelector('button.filters');
    // Choices are filled once, and a filter is offered only when the photos give a choice.
    const fill = () => values().then((all) => {
      if (form.dataset.filled) return;
      form.dataset.filled = '1';
      const sorted = (list) => [...new Set(list.filter((v) => typeof v === 'string' && v))].sort();
      const cameras = sorted(all.cameras), formats = sorted(all.formats);
      form.elements.camera.append(...cameras.map((value) => element('option', {value, textContent: value})));
      form.elements.format.append(...formats.map((value) => element('option', {value, textContent: value})));
      form.querySelector('datalist').append(...sorted([...all.keywords, ...cameras]).map((word) => element('option', {value: word})));
      const offered = {day: all.dated, camera: cameras.length > 0, format: formats.length > 1, rating: all.rated};
      for (const label of facets.querySelectorAll('label')) label.hidden = !offered[label.dataset.facet];
      filters.hidden = !Object.values(offered).some(Boolean);
    });
    form.addEventListener('focusin', fill);
    filters.addEventListener('click', () => fill().then(() => {
      facets.hidden = !facets.hidden;
      filters.setAttribute('aria-expanded', String(!facets.hidden));
    }));
    form.addEventListener('submit', (event) => event.preventDefault());
    const asked = () => {
      const value = (name) => form.elements[name].value.trim();
      return {from: value('from'), to: value('to'), camera: value('camera'), format: value('format'),
              text: value('text').toLowerCase(), rating: value('rating')};
    };
    // The words a photo is found by: camera, lens, title, caption, keywords and file name; on
    // the timeline, what find.js counts by month (camera and keywords), so that a word loads
    // only the months that hold it.
    if (timeline) form.elements.text.placeholder = 'Camera or keyword';
    const words = (photo) => photo.words || (photo.words = (timeline
      ? [photo.find.camera, ...photo.find.keywords]
      : [photo.name, photo.title, photo.caption, photo.find.camera,
         ...photo.facts.filter((f) => f.label === 'Lens').map((f) => f.value), ...photo.find.keywords])
      .filter((w) => typeof w === 'string').join('\n').toLowerCase());
    const matches = (photo, q) => {
      const f = photo.find;
      return (!q.from || (f.day && f.day >= q.from)) && (!q.to || (f.day && f.day <= q.to))
        && (!q.camera || f.camera === q.camera) && (!q.format || f.format === q.format)
        && (!q.rating || (f.rating || 0) >= +q.rating)
        && (!q.text || q.text.split(/\s+/).every((word) => words(photo).includes(word)));
    };
    const isVideo = (photo) => !!photo.video && !photo.video.live;
    // "3 photos, 1 video".
    const counted = (list) => {
      const videos = list.filter(isVideo).length, stills = list.length - videos;
      return [stills || !videos ? plural(stills, 'photo') : '', videos ? plural(videos, 'video') : ''].filter(Boolean).join(', ');
    };
    // The results in justified rows at the page's width, as an album lays its photos out.
    let shownLast = null;
    window.addEventListener('tessera-relayout', () => { if (shownLast) lay(...shownLast); });
    const lay = (list, container) => {
      shownLast = [list, container];
      const width = pageWidth();
      const laid = window.tesseraLayout.page([{header: false, photos: list.map((p) => p.width / p.height),
                                               limits: list.map((p) => p.height)}], 'justified', width);
      const layout = element('div', {className: `layout w${width} laid`});
      Object.assign(layout.style, {width: px(width), height: px(laid.height)});
      for (const item of laid.items) {
        const photo = list[item.photo];
        if (!photo) continue;
        const frame = unenlarged([photo.width, photo.height], {x: item.x, y: item.y, width: item.width, height: item.height});
        const need = frame.width * (window.devicePixelRatio || 1);
        const source = photo.sources.find((s) => s.width >= need) || photo.sources[photo.sources.length - 1];
        const link = element('a', {className: 'photo', href: photo.view});
        link.dataset.id = photo.id;
        // (on the timeline, the month whose photos the viewer goes through)
        link.dataset.month = (photo.find.day || '').slice(0, 7) || 'undated';
        Object.assign(link.style, {left: px(frame.x), top: px(frame.y), width: px(frame.width), height: px(frame.height)});
        link.append(element('img', {src: source ? source.url : '', alt: photo.name, width: Math.round(frame.width),
                                    height: Math.round(frame.height), loading: 'lazy', decoding: 'async'}));
        if (photo.video) link.append(badge(photo.video));
        if (photo.stack) link.append(stackBadge(photo.stack));
        layout.append(link);
      }
      container.replaceChildren(layout);
    };
    // How many of a month's photos can match: exact for one filter, at most that for several
    // (a word, at most the photos whose camera or keywords hold it).
    const atMost = (month, q) => {
      const f = month.find, counts = [Object.values(f.days).reduce((n, count) => n + count, 0)];
      const sum = (table, keep) => Object.entries(table).reduce((n, [key, count]) => n + (keep(key) ? count : 0), 0);
      for (const word of q.text ? q.text.split(/\s+/) : []) {
        const holds = (key) => key.toLowerCase().includes(word);
        counts.push(sum(f.cameras, holds) + sum(f.keywords, holds));
      }
      if (q.from || q.to) counts.push(sum(f.days, (day) => (!q.from || day >= q.from) && (!q.to || day <= q.to)));
      if (q.camera) counts.push(f.cameras[q.camera] || 0);
      if (q.format) counts.push(f.formats[q.format] || 0);
      if (q.rating) counts.push(f.ratings[+q.rating - 1] || 0);
      return Math.min(...counts);
    };
    let search = 0;
    const apply = async () => {
      const q = asked(), active = Object.values(q).some(Boolean), mine = ++search;
      for (const hidden of [document.querySelector('main'), document.querySelector('nav.pager'), document.querySelector('section.children')]) {
        if (hidden) hidden.hidden = active;
      }
      found.hidden = !active;
      const output = form.querySelector('output');
      output.textContent = '';
      found.replaceChildren();
      if (!active) return;
      const results = element('div');
      if (!timeline) {
        const list = await load();
        if (mine !== search) return;
        const shown = list.filter((photo) => matches(photo, q));
        output.textContent = `${counted(shown)} of ${list.length.toLocaleString('en')}`;
        found.replaceChildren(results);
        lay(shown, results);
        return;
      }
      const { photos: total, months } = await indexed();
      const candidates = months.map((month) => [month, atMost(month, q)]).filter(([, n]) => n > 0);
      const bound = candidates.reduce((n, [, count]) => n + count, 0);
      const exact = !q.text && [q.from || q.to, q.camera, q.format, q.rating].filter(Boolean).length === 1;
      // Months read so far, matches found in them (counted), shown, and not shown yet (pending).
      let next = 0, count = [], shown = [], pending = [];
      const more = element('button', {type: 'button', className: 'more', textContent: 'More'});
      const say = () => {
        const done = next === candidates.length;
        output.textContent = done ? `${counted(count)} of ${total.toLocaleString('en')}`
          : exact ? `${plural(bound, 'photo')} of ${total.toLocaleString('en')}`
          : `up to ${plural(bound, 'photo')} of ${total.toLocaleString('en')}`;
        more.hidden = done && !pending.length;
      };
      // The next 120 matches, reading the next months as they are needed.
      const show = async () => {
        while (pending.length < 120 && next < candidates.length) {
          const list = await read(candidates[next][0].file);
          if (mine !== search) return;
          next += 1;
          const hits = list.filter((photo) => matches(photo, q));
          count = count.concat(hits);
          pending.push(...hits);
        }
        shown = shown.concat(pending.slice(0, 120));
        pending = pending.slice(120);
        lay(shown, results);
        say();
      };
      more.addEventListener('click', show);
      found.replaceChildren(results, more);
      say();
      await show();
    };
    form.addEventListener('input', apply);
  }
  // The timeline as one stream of photos (SitePages.timeline): a block per month of justified
  // rows, days side by side, each laid out from the month's photos.js as it nears the window and
  // emptied far from it (keeping its height, so nothing moves), sized until then from find.js's
  // count; a scrubber by year beside it. Undated photos are the last block.
  const streamFrom = document.body.dataset.stream;
  const startStream = (index) => {
    const main = document.querySelector('main');
    if (!index || !main || !index.months.length) return;
    const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
    const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    // FriendlyDate.day: "Sat 15 Jul 2023".
    const dayTitle = (day) => {
      const [y, m, d] = day.split('-').map(Number);
      return `${weekdays[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]} ${d} ${monthNames[m - 1]} ${y}`;
    };
    // The month the scrubber went to, kept in place until the reader scrolls.
    let pinned = null;
    for (const type of ['wheel', 'touchstart', 'keydown']) window.addEventListener(type, () => { pinned = null; }, {passive: true});
    const width = () => Math.max(1, pageWidth() - scrubWidth);
    const stream = element('div', {className: 'stream'});
    const blocks = index.months.map((month) => {
      const layout = element('div', {className: 'layout laid'});
      const title = element('h2', {textContent: month.title});
      const section = element('section', {className: 'month', id: `month-${month.month || 'undated'}`}, title, layout);
      return {month, section, title, layout, list: null, shown: false};
    });
    const byElement = new Map(blocks.map((block) => [block.section, block]));
    // The lightbox's months: the month of the photo opened (its tile's, a found photo's, the
    // address's), and the months beside it, read when they are not.
    const key = (block) => block.month.month || 'undated';
    const listOf = async (block) => {
      const list = block.list || await read(block.month.file).catch(() => []);
      month = key(block);
      return list;
    };
    monthViewer = {
      photosOf: (id, tile) => {
        const section = tile && tile.closest('section.month');
        const named = (tile && tile.dataset.month) || address()[1];
        const block = (section && byElement.get(section)) || blocks.find((b) => key(b) === named);
        return block ? listOf(block) : Promise.resolve([]);
      },
      beside: (at, direction) => {
        const k = blocks.findIndex((b) => key(b) === at);
        return k < 0 ? null : blocks[k + direction] || null;
      },
      title: (at) => (blocks.find((b) => key(b) === at) || {month: {title: ''}}).month.title,
      across: (at, direction) => {
        const block = monthViewer.beside(at, direction);
        return block ? listOf(block) : Promise.resolve(null);
      },
    };
    stream.append(...blocks.map((block) => block.section));
    main.replaceChildren(stream);
    document.documentElement.classList.add('streaming');
    // Until its photos are read, a month is as tall as the layout engine's quick estimate (§4.5).
    const estimate = (block) => {
      const c = window.tesseraLayout.settings('justified', width());
      const content = c.width - c.insets.left - c.insets.right, target = c.targetRowHeight, n = block.month.find.photos || 1;
      return c.insets.top + c.headerHeight + Math.max(1, Math.ceil(1.5 * n * target * 0.7 / content)) * target + c.insets.bottom;
    };
    // The most a photo may be drawn at: its size, or its largest rendition's.
    const limit = (photo) => {
      const largest = photo.sources[photo.sources.length - 1];
      return Math.min(photo.height, largest ? largest.width * photo.height / photo.width : photo.height);
    };
    const lay = (block) => {
      const w = width(), pieces = [];
      for (const photo of block.list) {
        const day = (photo.find && photo.find.day) || '';
        let piece = pieces[pieces.length - 1];
        if (!piece || piece.day !== day) pieces.push(piece = {day, header: day !== '', photos: [], limits: [], entries: []});
        piece.photos.push(photo.width / photo.height);
        piece.limits.push(limit(photo));
        piece.entries.push(photo);
      }
      // (a month's last row at the target height: one photo does not take a whole screen)
      const laid = window.tesseraLayout.page(pieces, 'justified', w, {raggedLast: true});
      // What the window shows stays where it is as months above it take their height: the month
      // jumped to, else the first in the window, is moved back to where it was.
      // (the month jumped to, until the reader scrolls it out of the window)
      if (pinned) {
        const box = pinned.section.getBoundingClientRect();
        if (box.bottom < 0 || box.top > window.innerHeight) pinned = null;
      }
      const anchor = pinned || blocks.find((other) => other.section.getBoundingClientRect().bottom > 0) || block;
      const before = anchor.section.getBoundingClientRect().top;
      block.items = laid.items.map((item) => ({item, piece: pieces[item.piece]}));
      block.nodes = new Map();
      block.layout.replaceChildren();
      Object.assign(block.layout.style, {width: px(w), height: px(laid.height)});
      const moved = anchor.section.getBoundingClientRect().top - before;
      if (moved) window.scrollBy(0, moved);
      block.title.style.paddingLeft = px(laid.settings.insets.left);
      fill(block);
    };
    // One item of a month's layout as an element: a day's label, or a photo's link.
    const node = ({item, piece}) => {
      const box = {left: px(item.x), top: px(item.y), width: px(item.width), height: px(item.height)};
      if (item.header) {
        const text = dayTitle(piece.day);
        const header = element('div', {className: 'header', title: text}, element('span', {textContent: text}));
        Object.assign(header.style, box);
        return header;
      }
      const photo = piece.entries[item.photo];
      const link = element('a', {className: 'photo', href: photo.view});
      link.dataset.id = photo.id;
      Object.assign(link.style, box);
      const need = item.width * (window.devicePixelRatio || 1);
      const source = photo.sources.find((s) => s.width >= need) || photo.sources[photo.sources.length - 1];
      const img = element('img', {alt: photo.name, width: Math.round(item.width), height: Math.round(item.height),
                                  loading: 'lazy', decoding: 'async'});
      if (photo.sources.length > 1) {
        img.sizes = px(item.width);
        img.srcset = photo.sources.map((s) => `${s.url} ${s.width}w`).join(', ');
      }
      if (source) img.src = source.url;
      link.append(img);
      if (photo.video) link.append(badge(photo.video));
      if (photo.stack) link.append(stackBadge(photo.stack));
      return link;
    };
    // A month's items within a screen of the window are in the page, the others not: a month of
    // thousands of photos holds a few screens of them.
    const fill = (block) => {
      if (!block.items) return;
      const top = block.layout.getBoundingClientRect().top, screen = window.innerHeight;
      const [from, to] = [-top - screen, -top + 2 * screen];
      const near = ({item}) => item.y + item.height >= from && item.y <= to;
      for (const [k, shown] of block.nodes) {
        if (near(block.items[k])) continue;
        shown.remove();
        block.nodes.delete(k);
      }
      block.items.forEach((entry, k) => {
        if (block.nodes.has(k) || !near(entry)) return;
        const made = node(entry);
        block.layout.append(made);
        block.nodes.set(k, made);
      });
    };
    eachFrame('scroll', () => {
      for (const block of blocks) if (block.shown) fill(block);
    });
    const show = async (block) => {
      if (block.shown) return;
      block.shown = true;
      if (!block.list) {
        const list = await read(block.month.file, () => block.shown).catch(() => []);
        if (!block.shown || !list) return;
        block.list = list;
      }
      lay(block);
      placeYears();
    };
    // Far from the window a month lets its photos go, and keeps its height.
    const hide = (block) => {
      if (!block.shown) return;
      block.shown = false;
      [block.list, block.items, block.nodes] = [null, null, null];
      block.layout.replaceChildren();
    };
    const near = new IntersectionObserver((entries) => {
      for (const entry of entries) if (entry.isIntersecting) show(byElement.get(entry.target));
    }, {rootMargin: '100% 0px'});
    const far = new IntersectionObserver((entries) => {
      for (const entry of entries) if (!entry.isIntersecting) hide(byElement.get(entry.target));
    }, {rootMargin: '500% 0px'});
    for (const block of blocks) {
      Object.assign(block.layout.style, {width: px(width()), height: px(estimate(block))});
      block.title.style.paddingLeft = px(window.tesseraLayout.settings('justified', width()).insets.left);
      near.observe(block.section);
      far.observe(block.section);
    }
    // The scrubber: each year at its first month's place in the stream; a press or a drag
    // anywhere on it goes to that place.
    const scrubber = element('nav', {className: 'scrubber', ariaLabel: 'Years'});
    const years = [];
    for (const block of blocks) {
      const year = block.month.month ? block.month.month.slice(0, 4) : 'Undated';
      if (years.length && years[years.length - 1].year === year) continue;
      const link = element('a', {href: `#${block.section.id}`, textContent: year});
      link.addEventListener('click', (event) => {
        event.preventDefault();
        pinned = block;
        block.section.scrollIntoView();
      });
      years.push({year, block, link});
    }
    scrubber.append(...years.map((entry) => entry.link));
    document.body.append(scrubber);
    let placing = false;
    function placeYears() {
      if (placing) return;
      placing = true;
      requestAnimationFrame(() => {
        placing = false;
        // (inside a margin, so that the first and last years are whole)
        const total = stream.offsetHeight || 1, margin = 12, height = scrubber.clientHeight - 2 * margin;
        // Labels a line apart at least: pushed down from where their year starts, then up from
        // the end; one that still has no room of its own is left out (never the first or last).
        const line = 14, tops = years.map(({block}) => margin + (block.section.offsetTop - stream.offsetTop) / total * height);
        for (let k = 1; k < tops.length; k++) tops[k] = Math.max(tops[k], tops[k - 1] + line);
        tops[tops.length - 1] = Math.min(tops[tops.length - 1], margin + height);
        for (let k = tops.length - 2; k >= 0; k--) tops[k] = Math.min(tops[k], tops[k + 1] - line);
        let last = -Infinity;
        years.forEach(({link}, k) => {
          link.style.top = px(tops[k]);
          link.hidden = k > 0 && k < years.length - 1 && (tops[k] - last < line || tops[k] < margin);
          if (!link.hidden) last = tops[k];
        });
      });
    }
    placeYears();
    const jump = (event) => {
      pinned = null;
      const box = scrubber.getBoundingClientRect();
      const share = Math.min(1, Math.max(0, (event.clientY - box.top) / box.height));
      window.scrollTo(0, stream.offsetTop + share * stream.offsetHeight - box.height * 0.1);
    };
    let scrubbing = false;
    scrubber.addEventListener('pointerdown', (event) => {
      if (event.target.closest('a')) return;
      scrubbing = true;
      scrubber.setPointerCapture(event.pointerId);
      jump(event);
    });
    scrubber.addEventListener('pointermove', (event) => { if (scrubbing) jump(event); });
    scrubber.addEventListener('pointerup', () => { scrubbing = false; });
    window.addEventListener('tessera-relayout', () => {
      for (const block of blocks) {
        if (block.shown && block.list) lay(block);
        else Object.assign(block.layout.style, {width: px(width()), height: px(estimate(block))});
      }
      placeYears();
    });
    if (photoInAddress()) open(photoInAddress(), null, false);
  };
  if (streamFrom) script(streamFrom).then(() => startStream(window.tesseraFind), () => {});
  document.addEventListener('click', (event) => {
    const link = event.target.closest('a.photo');
    // A tile's "+N" leads to the page of all its section's photos.
    if (!link || link.classList.contains('more') || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    open(link.dataset.id, link, true).then((shown) => { if (!shown) location.href = link.href; }, () => { location.href = link.href; });
  });
  // An address naming a photo (album/index.html#photo-12) opens it; on the timeline, once the
  // stream is made.
  if (photoInAddress() && !streamFrom) open(photoInAddress(), null, false);
  prev.addEventListener('click', () => show(current - 1));
  next.addEventListener('click', () => show(current + 1));
  close.addEventListener('click', leave);
  info.addEventListener('click', () => details(viewer.classList.contains('plain')));
  document.addEventListener('keydown', (event) => {
    if (viewer.hidden) return;
    const playing = slideshow !== null;
    stopSlideshow();
    if (event.key === 'ArrowLeft') show(current - 1);
    else if (event.key === 'ArrowRight') show(current + 1);
    else if (event.key === 'Escape' && figure.classList.contains('zoomed')) zoom(false);
    else if (event.key === 'Escape') leave();
    else if (event.key === ' ' && !playing) startSlideshow();
    else if (event.key === ' ') {}
    else if (event.key === '+' || event.key === '=') zoom(true);
    else if (event.key === '-') zoom(false);
    else if (event.key === 'i' && !event.ctrlKey && !event.metaKey && !event.altKey) {
      details(viewer.classList.contains('plain'));
    }
    else return;
    event.preventDefault();
  });
  viewer.addEventListener('pointerdown', stopSlideshow);
  let touch = null;
  figure.addEventListener('touchstart', (event) => {
    touch = event.touches.length === 1 ? [event.touches[0].clientX, event.touches[0].clientY] : null;
  }, {passive: true});
  figure.addEventListener('touchend', (event) => {
    if (!touch) return;
    const dx = event.changedTouches[0].clientX - touch[0], dy = event.changedTouches[0].clientY - touch[1];
    touch = null;
    if (Math.abs(dx) > 50 && Math.abs(dx) > Math.abs(dy)) show(current + (dx < 0 ? 1 : -1));
  });
});
