// An album's (or month's) own map, under its photos (CollectionPages.map; docs/PLACES.md): once
// it is scrolled near, Leaflet and the site's map script are loaded and shown the photos of
// photos.js that have a position; a photo opens in this page's viewer. A map with no photo to
// show (all in private zones) goes.
/* global load, openPhoto, script, site */
const albumMap = document.querySelector('.album-map');
const albumMapElement = /** @type {HTMLElement | null} */ (albumMap && albumMap.querySelector('#map'));
if (albumMap && albumMapElement) {
  const drawAlbumMap = async () => {
    const points = (await load()).filter((photo) => photo.position).map((photo) => [
      ...photo.position, photo.thumb || null, photo.id,
      (photo.facts.find((fact) => fact.label === 'Place') || {value: null}).value]);
    if (!points.length) {
      albumMap.remove();
      return;
    }
    const base = albumMapElement.dataset.base || '';
    document.head.append(Object.assign(
      document.createElement('link'), {rel: 'stylesheet', href: `${base}assets/leaflet/leaflet.css`}));
    await script(`${base}assets/leaflet/leaflet.js`);
    const bounds = points.reduce(([[south, west], [north, east]], [latitude, longitude]) => [
      [Math.min(south, latitude), Math.min(west, longitude)], [Math.max(north, latitude), Math.max(east, longitude)],
    ], [[90, 180], [-90, -180]]);
    site.tesseraMapIndex = {
      photos: points.length, points, bounds, base, maxZoom: 16, cellsPerTile: 4,
      tiles: 'tiles' in albumMapElement.dataset, open: (id) => openPhoto(id, null, true),
    };
    await script(`${base}assets/map.js`);
  };
  const near = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    near.disconnect();
    drawAlbumMap().catch(() => albumMap.remove());
  }, {rootMargin: '400px'});
  near.observe(albumMap);
}
