// The viewer (the page's lightbox): the photo, its details and the filmstrip, and `show`, which
// puts a photo of the list in it.
/* exported buildStrip, closeButton, details, figure, image, info, next, prev, show, slideshow, startSlideshow,
   still, stopSlideshow, viewer, zoom */
/* global current:writable, element, expanded, fragment, here, month, monthViewer, photos:writable */
const image = element('img', {alt: '', decoding: 'async'});
const figure = element('figure', {}, image);
let motion = null;
figure.addEventListener('pointerenter', () => motion && motion.start());
figure.addEventListener('pointerdown', () => motion && motion.start());
for (const type of ['pointerleave', 'pointerup', 'pointercancel']) {
  figure.addEventListener(type, () => motion && motion.stop());
}
const prev = element('button', {className: 'prev', type: 'button', textContent: '‹', title: 'Previous (←)'});
const next = element('button', {className: 'next', type: 'button', textContent: '›', title: 'Next (→)'});
const closeButton = element('button', {className: 'close', type: 'button', textContent: '×', title: 'Close (Esc)'});
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
const viewer = element(
  'div', {className: 'lightbox', hidden: true}, figure, strip, facts, prev, next, info, closeButton, counter);
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
    const fx = event ? (event.clientX - box.left) / box.width : 0.5;
    const fy = event ? (event.clientY - box.top) / box.height : 0.5;
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
  slideshow = setInterval(() => {
    if (current + 1 < photos.length || beyond(1)) show(current + 1); else stopSlideshow();
  }, 4000);
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
  if (new URL(photo.view, here()).pathname !== new URL(here()).pathname) {
    links.push(element('a', {href: photo.view, textContent: 'In its album'}));
  }
  if (photo.original) {
    links.push(element('a', {href: photo.original, textContent: 'Download original', download: photo.name}));
  }
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
