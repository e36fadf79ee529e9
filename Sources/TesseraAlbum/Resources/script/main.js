// What a click on a photo opens, and an address naming one.
/* global openPhoto, photoInAddress, streamFrom */
document.addEventListener('click', (event) => {
  const link = /** @type {HTMLAnchorElement | null} */ (/** @type {Element} */ (event.target).closest('a.photo'));
  // A tile's "+N" leads to the page of all its section's photos.
  const modified = event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
  if (!link || link.classList.contains('more') || modified) return;
  event.preventDefault();
  const follow = () => { location.href = link.href; };
  openPhoto(link.dataset.id, link, true).then((shown) => { if (!shown) follow(); }, follow);
});
// An address naming a photo (album/index.html#photo-12) opens it; on the timeline, once the
// stream is made.
if (photoInAddress() && !streamFrom) openPhoto(photoInAddress(), null, false);
