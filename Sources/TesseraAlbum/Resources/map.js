// The library's map (map.html; docs/PLACES.md): Leaflet over the basemap the site carries, and
// the photos' clusters of the zoom shown, loaded as scripts (a page opened from disk cannot fetch)
// for the area shown. A cluster is its newest photo's thumbnail and its count; a click zooms into
// it, or, for one photo or at the closest zoom, opens the photo in its album's viewer.
// An album's own map (album.js sets `points`: its photos with a position) is clustered here, in
// cells of the same size, and leaves the page's address alone.
/* global L */
(() => {
  'use strict';
  const index = window.tesseraMapIndex;
  const element = document.getElementById('map');
  if (!index || !element || !window.L) return;
  const own = Array.isArray(index.points);
  const base = index.base || '';
  const credit = 'Places: <a href="https://www.geonames.org/">GeoNames</a> (CC BY 4.0)';
  // (never past the poles of the square: no grey band above or below the world; east and west go round)
  const map = L.map(element, {
    worldCopyJump: true, minZoom: 1, maxZoom: 18, attributionControl: true, scrollWheelZoom: !own,
    maxBounds: [[-85.06, -540], [85.06, 540]], maxBoundsViscosity: 1,
  });
  map.attributionControl.setPrefix('<a href="https://leafletjs.com/">Leaflet</a>');
  if (index.tiles) {
    L.tileLayer(`${base}assets/basemap/{z}/{x}/{y}.png`, {
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

  // Web Mercator's square, 0–1 from the west and from the north.
  const mercator = (latitude, longitude) => {
    const phi = Math.max(-85.05, Math.min(85.05, latitude)) * Math.PI / 180;
    return [(longitude + 180) / 360, (1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2];
  };

  // The data files of `zoom` that cover what the map shows.
  const visible = (zoom) => {
    const names = new Set(index.chunks[zoom] || []);
    const side = 2 ** zoom;
    const tile = (latitude, longitude) => {
      const [x, y] = mercator(latitude, longitude);
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

  // An album's photos ([latitude, longitude, thumbnail, id, place], newest first) in the cells of
  // `zoom`, as the library's data files hold its clusters.
  const clustersAt = (zoom) => {
    const side = 2 ** zoom * index.cellsPerTile;
    const cells = new Map();
    for (const [latitude, longitude, thumb, id, name] of index.points) {
      const [x, y] = mercator(latitude, longitude);
      const key = Math.min(side - 1, Math.floor(x * side)) * side + Math.min(side - 1, Math.floor(y * side));
      const cell = cells.get(key);
      if (cell) {
        cell[0] += latitude;
        cell[1] += longitude;
        cell[2] += 1;
        [cell[6], cell[7]] = [Math.min(cell[6], latitude), Math.min(cell[7], longitude)];
        [cell[8], cell[9]] = [Math.max(cell[8], latitude), Math.max(cell[9], longitude)];
      } else {
        cells.set(key, [latitude, longitude, 1, thumb, id, name, latitude, longitude, latitude, longitude]);
      }
    }
    return [...cells.values()].map((cell) => [cell[0] / cell[2], cell[1] / cell[2], ...cell.slice(2)]);
  };
  const owned = new Map();
  const shown = (zoom) => {
    if (own) {
      if (!owned.has(zoom)) owned.set(zoom, clustersAt(zoom));
      return owned.get(zoom);
    }
    return visible(zoom).flatMap((name) => loaded.get(`${zoom}/${name}`) || []);
  };

  const draw = () => {
    markers.clearLayers();
    for (const item of shown(dataZoom())) {
      const [latitude, longitude, count, , link] = item;
      const marker = L.marker([latitude, longitude], {icon: icon(item), keyboard: true, title: ''});
      marker.on('click', () => {
        if (count > 1 && map.getZoom() < index.maxZoom && item.length > 6) {
          const box = L.latLngBounds([item[6], item[7]], [item[8], item[9]]);
          map.flyToBounds(box, {maxZoom: Math.min(index.maxZoom + 1, map.getZoom() + 4), padding: [40, 40]});
        } else if (link) {
          if (own) index.open(link); else location.href = link;
        }
      });
      markers.addLayer(marker);
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
    if (own) {
      draw();
      return;
    }
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
    if (!own) history.replaceState(null, '', `#${map.getZoom()}/${center.lat.toFixed(5)}/${center.lng.toFixed(5)}`);
    load();
  });
  // The view: the address's #zoom/latitude/longitude (also when a link changes it), else every photo.
  const asked = () => {
    const view = !own && location.hash.match(/^#(\d+)\/(-?[\d.]+)\/(-?[\d.]+)$/);
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
