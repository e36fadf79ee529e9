// Opening and closing the viewer, with the address and the history; its buttons, keys and swipes.
/* exported openPhoto */
/* global buildStrip, closeButton, current, details, expanded, figure, fragment, image, info, load, monthViewer,
   next, openedFrom:writable, photoInAddress, photos:writable, prev, savedScroll:writable, show, slideshow,
   startSlideshow, still, stopSlideshow, viewer, zoom */
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
  const animation = image.animate(reverse ? frames.reverse() : frames, {duration: 220, easing: 'ease-out'});
  return animation.finished.catch(() => {});
};
const tileOf = (id) => {
  const tiles = /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll('a.photo'));
  return [...tiles].find((a) => a.dataset.id === id && a.offsetParent);
};
// Opens the lightbox on a photo, from its tile when there is one; false when the photo is not here.
const openPhoto = (id, tile, push) => (monthViewer ? monthViewer.photosOf(id, tile) : load()).then((all) => {
  // A stack's member is found in its face's stack, which opens out.
  const face = all.findIndex((photo) => photo.stack && photo.stack.photos.some((member) => member.id === id));
  const list = face >= 0 ? expanded(all, face) : all;
  const index = list.findIndex((photo) => photo.id === id);
  if (index < 0) return false;
  openedFrom = tile;
  savedScroll = window.scrollY;
  document.documentElement.classList.add('viewing');
  photos = list;
  buildStrip();
  // An entry of its own in the history: Back (or a phone's back gesture) closes the photo.
  if (push) history.pushState({lightbox: true}, '', fragment(id));
  viewer.hidden = false;
  show(index);
  if (tile) fromTile(tile, false);
  closeButton.focus({preventScroll: true});
  return true;
});
// Closing by the button or Esc goes back too, so the entry does not linger.
const leave = () => { if (history.state && history.state.lightbox) history.back(); else dismiss(); };
// Back and Forward: the address says which photo is open, if any.
window.addEventListener('popstate', () => {
  const id = photoInAddress();
  if (!id) dismiss();
  else if (viewer.hidden) openPhoto(id, tileOf(id), false);
  else {
    (monthViewer ? Promise.resolve(photos || []) : load()).then((list) => {
      const index = list.findIndex((photo) => photo.id === id);
      if (index >= 0) show(index); else openPhoto(id, tileOf(id), false);
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
    if (openedFrom) openedFrom.focus({preventScroll: true});
    // Opened from its address, the page's entry keeps no photo once it is closed.
    if (photoInAddress()) history.replaceState(history.state, '', location.pathname + location.search);
  });
};
// The viewer's buttons, keys and swipes.
prev.addEventListener('click', () => show(current - 1));
next.addEventListener('click', () => show(current + 1));
closeButton.addEventListener('click', leave);
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
  else if (event.key === ' ') { /* a space that ends a slideshow starts none */ }
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
