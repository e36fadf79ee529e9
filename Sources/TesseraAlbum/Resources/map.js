// The library's map (map.html; docs/PLACES.md): Leaflet over the basemap the site carries, and
// the photos' clusters of the zoom shown, loaded as scripts (a page opened from disk cannot fetch)
// for the area shown. A cluster is its newest photo's thumbnail and its count; a click zooms into
// it, or, for one photo or at the closest zoom, opens the photo in its album's viewer.
/* global L */
(() => {
  'use strict';
  const index = window.tesseraMapIndex;
  const element = document.getElementById('map');
  if (!index || !element || !window.L) return;
  const credit = 'Places: <a href="https://www.geonames.org/">GeoNames</a> (CC BY 4.0)';
  const map = L.map(element, {worldCopyJump: true, minZoom: 1, maxZoom: 18, attributionControl: true});
  map.attributionControl.setPrefix('<a href="https://leafletjs.com/">Leaflet</a>');
  if (index.tiles) {
    L.tileLayer('assets/basemap/{z}/{x}/{y}.png', {
      maxNativeZoom: 6, maxZoom: 18, minZoom: 0,
      attribution: `Map © <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors · ${credit}`,
    }).addTo(map);
  } else {
    map.attributionControl.addAttribution(credit);
  }
  // (no zoom so far out that the world is shorter than the map: no grey band above and below it)
  const fitWorld = () => map.setMinZoom(Math.max(1, Math.ceil(Math.log2(element.clientHeight / 256))));
  fitWorld();
  window.addEventListener('resize', fitWorld);
  const markers = L.layerGroup().addTo(map);
  const loaded = new Map();
  const dataZoom = () => Math.max(0, Math.min(index.maxZoom, Math.round(map.getZoom())));

  // The data files of `zoom` that cover what the map shows.
  const visible = (zoom) => {
    const names = new Set(index.chunks[zoom] || []);
    const side = 2 ** zoom;
    const tile = (latitude, longitude) => {
      const phi = Math.max(-85.05, Math.min(85.05, latitude)) * Math.PI / 180;
      const x = (longitude + 180) / 360;
      const y = (1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2;
      return [Math.floor(Math.max(0, Math.min(side - 1, x * side)) / index.chunkTiles),
              Math.floor(Math.max(0, Math.min(side - 1, y * side)) / index.chunkTiles)];
    };
    const bounds = map.getBounds();
    const [west, north] = tile(bounds.getNorth(), Math.max(-180, bounds.getWest()));
    const [east, south] = tile(bounds.getSouth(), Math.min(180, bounds.getEast()));
    const found = [];
    for (let x = west; x <= east; x += 1) {
      for (let y = north; y <= south; y += 1) {
        if (names.has(`${x}-${y}`)) found.push(`${x}-${y}`);
      }
    }
    return found;
  };

  const icon = ([, , count, thumb, , name]) => {
    const box = document.createElement('div');
    if (thumb) {
      const image = document.createElement('img');
      image.src = thumb;
      image.alt = '';
      image.loading = 'lazy';
      box.append(image);
    }
    const label = document.createElement('span');
    label.textContent = count > 999 ? `${Math.round(count / 100) / 10}k` : String(count);
    box.append(label);
    box.title = `${name ? `${name}: ` : ''}${count} photo${count === 1 ? '' : 's'}`;
    return L.divIcon({className: 'map-cluster', html: box, iconSize: [56, 56], iconAnchor: [28, 28]});
  };

  const draw = () => {
    markers.clearLayers();
    const zoom = dataZoom();
    for (const name of visible(zoom)) {
      for (const item of loaded.get(`${zoom}/${name}`) || []) {
        const [latitude, longitude, count, , link] = item;
        const marker = L.marker([latitude, longitude], {icon: icon(item), keyboard: true, title: ''});
        marker.on('click', () => {
          if (count > 1 && map.getZoom() < index.maxZoom && item.length > 6) {
            const box = L.latLngBounds([item[6], item[7]], [item[8], item[9]]);
            map.flyToBounds(box, {maxZoom: Math.min(index.maxZoom + 1, map.getZoom() + 4), padding: [40, 40]});
          } else if (link) {
            location.href = link;
          }
        });
        markers.addLayer(marker);
      }
    }
  };

  window.tesseraMap = {
    chunk(zoom, name, items) {
      loaded.set(`${zoom}/${name}`, items);
      if (zoom === dataZoom()) draw();
    },
  };

  const load = () => {
    const zoom = dataZoom();
    for (const name of visible(zoom)) {
      const key = `${zoom}/${name}`;
      if (loaded.has(key)) continue;
      loaded.set(key, null);
      const script = document.createElement('script');
      script.src = `map/${key}.js`;
      script.onerror = () => loaded.set(key, []);
      document.head.append(script);
    }
    draw();
  };

  // (first: the view set below moves the map, and its address follows)
  map.on('moveend', () => {
    const center = map.getCenter();
    history.replaceState(null, '', `#${map.getZoom()}/${center.lat.toFixed(5)}/${center.lng.toFixed(5)}`);
    load();
  });
  // The view: the address's #zoom/latitude/longitude (also when a link changes it), else every photo.
  const asked = () => {
    const view = location.hash.match(/^#(\d+)\/(-?[\d.]+)\/(-?[\d.]+)$/);
    if (view) map.setView([Number(view[2]), Number(view[3])], Number(view[1]));
    return view;
  };
  window.addEventListener('hashchange', asked);
  if (!asked()) {
    if (index.bounds) map.fitBounds(index.bounds, {padding: [40, 40], maxZoom: 12});
    else map.setView([20, 0], 2);
  }
  element.dataset.photos = String(index.photos);
  load();
})();
